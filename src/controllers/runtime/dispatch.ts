import type { ControllerBindings } from '../bindings'
import { ApiError, failure } from '../../apimachinery/status'
import type { AdmissionLookups } from '../../admission/lookups'
import type { Action, ActionType } from './actions'
import type { ActionContext, ActionHandler, ActionHandlers } from './action-context'
import { objectWrites } from './object-writes'

/**
 * The action handlers, by type: the API writes and events every controller makes, and the effects
 * controllers registered for themselves.
 */
const handlers: ActionHandlers = {
  ...objectWrites,
  event: (action, ctx, now) => ctx.recorder.record(action, ctx.controller, now),
}

/**
 * Adds the handlers of a controller's own actions (declared in `Actions` by the controller). A type
 * handles one way: registering another handler for a type already handled is a programming error.
 */
export function registerActions(own: ActionHandlers): void {
  for (const [type, handler] of Object.entries(own) as [ActionType, ActionHandler<ActionType>][]) {
    const current = handlers[type] as ActionHandler<ActionType> | undefined
    if (current && current !== handler) throw new Error(`${type} actions have a handler already`)
    ;(handlers as Record<ActionType, ActionHandler<ActionType>>)[type] = handler
  }
}

/**
 * Performs one action against the stores and records its result in the caches at once, so the
 * rest of the pass (and the next one) never acts on a state older than its own writes. A create's
 * admission reads LimitRanges and quotas through `lookups` (its batch's shared reads; by default
 * its own).
 */
export async function applyAction(
  ctx: ActionContext,
  action: Action,
  now: number,
  lookups?: AdmissionLookups,
): Promise<void> {
  const handler = handlers[action.type] as ActionHandler<ActionType> | undefined
  if (!handler)
    throw new Error(`${ctx.controller} asked for a ${action.type} action, which nothing handles`)
  await handler(action, ctx, now, lookups)
}

/** The environment an effect reaches the cluster through; where the stores are in memory, the effect is refused as not modelled. */
export function clusterOf(ctx: ActionContext, effect: string): ControllerBindings {
  if (!ctx.env)
    throw new ApiError(failure(501, 'InternalError', `${effect} is not modelled in memory`))
  return ctx.env
}
