import type { ControllerBindings } from '../bindings'
import type { AdmissionLookups } from '../../admission/lookups'
import type { ActionOf, ActionType } from './actions'
import type { InformerCaches } from './cache'
import type { ControllerStores } from './controller-stores'
import type { EventRecorder } from './event-recorder'

/** What a controller's actions are performed with. */
export interface ActionContext {
  /** the Worker's environment, which effects a controller registered reach the cluster through; none where the stores are in memory */
  readonly env?: ControllerBindings
  readonly stores: ControllerStores
  /** the controller's caches, which record each write's result at once */
  readonly caches: InformerCaches
  readonly recorder: EventRecorder
  /** the controller the actions are for: the user its writes are made as, and its events' source */
  readonly controller: string
}

/**
 * Performs one action and records its result in the caches. A create's admission reads LimitRanges
 * and quotas through `lookups` (its batch's shared reads; by default its own).
 */
export type ActionHandler<K extends ActionType> = (
  action: ActionOf<K>,
  ctx: ActionContext,
  now: number,
  lookups?: AdmissionLookups,
) => Promise<void>

/** Handlers by action type. */
export type ActionHandlers = { [K in ActionType]?: ActionHandler<K> }
