import type { KubeObject } from '../../apimachinery/types'
import { formatTime } from '../../apimachinery/meta-time'
import type { ActionOf } from './actions'
import { eventSourceOf } from './identity'

/** Counts events named in this isolate, from a random start, so no two in one millisecond share a name. */
let eventSequence = Math.floor(Math.random() * 1_000_000)

/**
 * `<object>.<hex>` as the event recorder names events (`%x` of the time in nanoseconds): here the
 * milliseconds with a per-isolate sequence in the sub-millisecond digits, so a burst of events
 * about one object within one pass never collides, whichever controller records them.
 */
export function eventName(objectName: string, now: number): string {
  eventSequence = (eventSequence + 1) % 1_000_000
  return `${objectName}.${(BigInt(Math.floor(now)) * 1_000_000n + BigInt(eventSequence)).toString(16)}`
}

/** A core/v1 Event as kube-controller-manager's event recorder writes it. */
export function newEvent(
  action: ActionOf<'event'>,
  controllerName: string,
  now: number,
): KubeObject {
  const controller = eventSourceOf(controllerName)
  const o = action.involved
  const namespace = o.metadata.namespace || 'default'
  const at = formatTime(now)
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: eventName(o.metadata.name ?? '', now), namespace },
    involvedObject: {
      kind: o.kind,
      namespace: o.metadata.namespace,
      name: o.metadata.name,
      uid: o.metadata.uid,
      apiVersion: o.apiVersion,
      resourceVersion: o.metadata.resourceVersion,
    },
    reason: action.reason,
    message: action.message,
    source: { component: controller },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    type: action.eventType,
    eventTime: null,
    reportingComponent: controller,
    reportingInstance: '',
  }
}
