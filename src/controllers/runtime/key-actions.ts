import type { AdmissionLookups } from '../../admission/lookups'
import type { Action, ActionOf } from './actions'
import type { ActionContext } from './action-context'
import { applyAction } from './dispatch'
import { naming, RefusedAction } from './refusal'
import { slowStart } from './slow-start'

type EventAction = ActionOf<'event'>

const isEvent = (a: Action): a is EventAction => a.type === 'event'

/**
 * Applies a key's actions in order, a run of creates in slow-start batches (whose admission reads
 * `newLookups` makes, once per batch); then its events, many per call to the events store. A
 * refused event fails the key, as a refused write does. When a write is refused, the events decided
 * before it are still written (upstream's controllers record them as they go: a FailedCreate about
 * the previous pass's refusal is written even though this pass's create is refused again).
 * `onCall` is told of each store call.
 */
export async function applyKeyActions(
  ctx: ActionContext,
  all: Action[],
  now: number,
  onCall: () => void,
  newLookups: () => AdmissionLookups,
): Promise<void> {
  const write = (a: Action, lookups?: AdmissionLookups) => {
    onCall()
    return naming(a, applyAction(ctx, a, now, lookups))
  }
  const actions = all.filter((a) => !isEvent(a))
  let i = 0
  try {
    while (i < actions.length) {
      if (actions[i]!.type !== 'create') {
        await write(actions[i++]!)
        continue
      }
      let j = i
      while (j < actions.length && actions[j]!.type === 'create') j++
      // The creates of one batch share their admission reads, made after all of them began.
      const lookups: AdmissionLookups[] = []
      await slowStart(actions.slice(i, j), (a, batch) =>
        write(a, (lookups[batch] ??= newLookups())),
      )
      i = j
    }
  } catch (e) {
    const stop = e instanceof RefusedAction ? all.indexOf(e.action) : -1
    if (stop > 0)
      await writeEvents(ctx, all.slice(0, stop).filter(isEvent), now, onCall).catch(() => undefined)
    throw e
  }
  await writeEvents(ctx, all.filter(isEvent), now, onCall)
}

/** Writes a key's events, many per call to the events store; a refused one fails the key. */
async function writeEvents(
  ctx: ActionContext,
  events: EventAction[],
  now: number,
  onCall: () => void,
): Promise<void> {
  if (!events.length) return
  const answers = await ctx.recorder.recordMany(
    events.map((action) => ({ action, now })),
    ctx.controller,
    onCall,
  )
  const refused = answers.findIndex((r) => r !== undefined)
  if (refused >= 0) throw new RefusedAction(events[refused]!, answers[refused]!)
}
