import type { KubeObject } from '../../apimachinery/types'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import type { Remembered } from '../runtime/memory'
import type { Action } from '../runtime/types'
import { event } from './events'

/** What one pass of an owner's key asked for: pods to create, which the store names. */
export interface RequestedCreates {
  uid: string
  /** every pod the owner controlled (or adopted) when the creates were asked for */
  knownUids: string[]
  creates: number
}

const byAge = (a: KubeObject, b: KubeObject) => {
  const [ta, tb] = [a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? '']
  return ta !== tb ? (ta < tb ? -1 : 1) : (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1
}

/**
 * The pods an owner's previous pass created, oldest first, so that they get their SuccessfulCreate
 * events now that the store has named them: the part of upstream's ControllerExpectations this
 * model needs. Reconcile cannot see whether its writes succeeded, and pods are named by the store,
 * so each pass remembers what it asked for (`requestedCreates`, kept in the controller's memory
 * under the owner's key, which its host persists) and the next pass, which the new pods' own
 * changes bring, compares that with the cache: the pods it controls that appeared since are the
 * ones created, up to as many as were asked for. (Why a create failed is the runner's to tell: the
 * refusal it hands the next reconcile.) A pass that reads this replaces what it read.
 */
export function createdPods(
  memory: Remembered,
  key: string,
  owner: KubeObject,
  candidates: readonly KubeObject[],
): KubeObject[] {
  const req = memory.get(key) as RequestedCreates | undefined
  if (!req || req.uid !== owner.metadata.uid || !Array.isArray(req.knownUids)) return []
  const known = new Set(req.knownUids)
  return candidates
    .filter((p) => controllerRefOf(p)?.uid === req.uid && !known.has(p.metadata.uid ?? ''))
    .sort(byAge)
    .slice(0, req.creates)
}

/** What a pass remembers of the creates it asks for; nothing (the entry is forgotten) when it asks for none. */
export function requestedCreates(
  owner: KubeObject,
  knownUids: Iterable<string>,
  creates: number,
): RequestedCreates | undefined {
  if (creates === 0) return undefined
  return { uid: owner.metadata.uid ?? '', knownUids: [...new Set(knownUids)], creates }
}

/** The event naming a pod its owner created, as upstream's pod control records it. */
export const createdPodEvent = (owner: KubeObject, pod: KubeObject): Action =>
  event(owner, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`)
