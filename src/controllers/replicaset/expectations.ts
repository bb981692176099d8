import type { KubeObject } from '../../apimachinery/types'
import { ControllerMemory } from '../runtime/memory'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import { isPodActive } from '../shared/pods'
import type { ReplicaSet } from '../shared/workloads'

/** What one pass asked for: pods to create (named by the store) and pods to delete. */
interface Requested {
  uid: string
  /** every pod the ReplicaSet controlled (or adopted) when the creates were asked for */
  knownUids: string[]
  creates: number
  deletes: { uid: string; name: string }[]
}

/** What became of the previous pass's requests, read from the cache at the start of the next one. */
export interface Outcomes {
  /** pods the previous pass created, oldest first: they get their SuccessfulCreate events now that their names are known */
  created: KubeObject[]
  requestedCreates: number
  /** creates that did not happen: the runner stops at the first failing write */
  missingCreates: number
  requestedDeletes: number
  /** pods still active although the previous pass deleted them */
  failedDeletes: number
}

const none: Outcomes = { created: [], requestedCreates: 0, missingCreates: 0, requestedDeletes: 0, failedDeletes: 0 }

const byAge = (a: KubeObject, b: KubeObject) => {
  const [ta, tb] = [a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? '']
  return ta !== tb ? (ta < tb ? -1 : 1) : (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1
}

/**
 * The part of upstream's ControllerExpectations this model needs. Reconcile cannot see whether its
 * writes succeeded, and pods are named by the store, so each pass remembers what it asked for and
 * the next pass (which the new pods' own notifications trigger) compares that with the cache: pods
 * that appeared are the ones created, a shortfall means creates failed (manageReplicasErr upstream,
 * which sets ReplicaFailure). It lives in the controller's memory, which its host persists, so a
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
    const byUid = new Map(podsInNamespace.map((p) => [p.metadata.uid ?? '', p]))
    const failedDeletes = req.deletes.filter((d) => {
      const pod = byUid.get(d.uid)
      return pod !== undefined && isPodActive(pod)
    }).length
    return { created, requestedCreates: req.creates, missingCreates: req.creates - created.length, requestedDeletes: req.deletes.length, failedDeletes }
  }

  /** Records this pass's requests; nothing is kept when it asked for nothing. */
  expect(key: string, rs: ReplicaSet, knownUids: Iterable<string>, creates: number, deletes: readonly KubeObject[]): void {
    if (creates === 0 && deletes.length === 0) return
    this.memory.set(key, {
      uid: rs.metadata.uid ?? '',
      knownUids: [...new Set(knownUids)],
      creates,
      deletes: deletes.map((p) => ({ uid: p.metadata.uid ?? '', name: p.metadata.name ?? '' })),
    })
  }

  forget(key: string): void {
    this.memory.delete(key)
  }
}
