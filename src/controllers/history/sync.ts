import type { KubeObject } from '../../apimachinery/types'
import type { Action } from '../runtime/types'
import {
  equalRevision,
  newControllerRevision,
  nextRevision,
  sortRevisions,
  type ControllerRevision,
  type RevisionOwner,
} from './revision'
import { controllerRevisions } from '../resources'

export interface HistoryInput {
  owner: RevisionOwner
  /** the revisions the owner controls */
  owned: readonly KubeObject[]
  /** any revision in the namespace by name, for name collisions */
  lookup: (name: string) => KubeObject | undefined
  /** the data of the owner's current template (templatePatch) */
  data: unknown
  collisionCount: number
}

export interface HistoryResult {
  /** the history in revision order after this pass, the update revision included */
  sorted: KubeObject[]
  update: ControllerRevision
  collisionCount: number
  actions: Action[]
}

/** Guards the collision loop: a hash clash that persists this long is not a clash but a bug. */
const MAX_COLLISIONS = 100

/**
 * getStatefulSetRevisions / constructHistory: the revision matching the current template. When
 * the latest revision already matches, nothing changes; an older matching revision (a rollback) is
 * renumbered to come next; otherwise a new revision is created, bumping the collision count while
 * its name is taken by a revision with other data.
 */
export function syncHistory(input: HistoryInput): HistoryResult {
  const sorted = sortRevisions(input.owned)
  const next = nextRevision(sorted)
  let collisionCount = input.collisionCount
  const candidate = newControllerRevision(input.owner, input.data, next, collisionCount)
  const equal = sorted.filter((r) => equalRevision(r, candidate))
  const latest = sorted[sorted.length - 1]
  const match = equal[equal.length - 1]
  if (match && match === latest)
    return { sorted, update: match as ControllerRevision, collisionCount, actions: [] }
  if (match) {
    const renumbered = { ...structuredClone(match), revision: next } as ControllerRevision
    const rest = sorted.filter((r) => r !== match)
    return {
      sorted: [...rest, renumbered],
      update: renumbered,
      collisionCount,
      actions: [{ type: 'update', resource: controllerRevisions, object: renumbered }],
    }
  }
  for (let i = 0; i < MAX_COLLISIONS; i++) {
    const fresh = newControllerRevision(input.owner, input.data, next, collisionCount)
    const existing = input.lookup(fresh.metadata.name ?? '')
    if (!existing)
      return {
        sorted: [...sorted, fresh],
        update: fresh,
        collisionCount,
        actions: [{ type: 'create', resource: controllerRevisions, object: fresh }],
      }
    if (equalRevision(existing, fresh))
      return {
        sorted: [...sorted, existing],
        update: existing as ControllerRevision,
        collisionCount,
        actions: [],
      }
    collisionCount++
  }
  throw new Error(
    `no free revision name for ${input.owner.owner.metadata.name} after ${MAX_COLLISIONS} collisions`,
  )
}
