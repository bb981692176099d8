import type { KubeObject } from '../../apimachinery/types'
import { ControllerMemory } from '../runtime/memory'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import type { ReplicaSet } from '../shared/workloads'

/** What one pass asked for: pods to create (named by the store). */
interface Requested {
  uid: string
  /** every pod the ReplicaSet controlled (or adopted) when the creates were asked for */
  knownUids: string[]
  creates: number
}

/** What became of the previous pass's requests, read from the cache at the start of the next one. */
export interface Outcomes {
  /** pods the previous pass created, oldest first: they get their SuccessfulCreate events now that their names are known */
  created: KubeObject[]
}

const none: Outcomes = { created: [] }

const byAge = (a: KubeObject, b: KubeObject) => {
  const [ta, tb] = [a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? '']
  return ta !== tb ? (ta < tb ? -1 : 1) : (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1
}

/**
 * The part of upstream's ControllerExpectations this model needs. Reconcile cannot see whether its
 * writes succeeded, and pods are named by the store, so each pass remembers what it asked for and
 * the next pass (which the new pods' own notifications trigger) compares that with the cache: pods
 * that appeared are the ones created. (Why a create or delete failed is the runner's to tell: the
 * refusal it hands the next reconcile.) It lives in the controller's memory, which its host persists, so a
 * restarted controller still announces the pods its predecessor created.
 */
export class Expectations {
  constructor(readonly memory: ControllerMemory = new ControllerMemory()) {}

  /** Reads and forgets what the previous pass for `key` asked for. */
  observe(key: string, rs: ReplicaSet, podsInNamespace: readonly KubeObject[]): Outcomes {
    const req = this.memory.get(key) as Requested | undefined
    this.memory.delete(key)
    if (!req || req.uid !== rs.metadata.uid) return none
    const known = new Set(req.knownUids)
    const created = podsInNamespace
      .filter((p) => controllerRefOf(p)?.uid === req.uid && !known.has(p.metadata.uid ?? ''))
      .sort(byAge)
      .slice(0, req.creates)
    return { created }
  }

  /** Records this pass's creates; nothing is kept when it asked for none. */
  expect(key: string, rs: ReplicaSet, knownUids: Iterable<string>, creates: number): void {
    if (creates === 0) return
    this.memory.set(key, {
      uid: rs.metadata.uid ?? '',
      knownUids: [...new Set(knownUids)],
      creates,
    })
  }

  forget(key: string): void {
    this.memory.delete(key)
  }
}
