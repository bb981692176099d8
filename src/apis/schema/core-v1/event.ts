/** The core/v1 Event kind. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, enumOf, group, int, kind, required, str, struct, time } from '../dsl'
import { c } from './shorthands'

export const coreV1Event: SchemaSet = group(CORE, {
  Event: kind('Event is a report of an event somewhere in the cluster.', {
    involvedObject: required(c('ObjectReference', 'The object that this event is about.')),
    reason: str(
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    message: str('A human-readable description of the status of this operation.'),
    source: c(
      'EventSource',
      'The component reporting this event. Should be a short machine understandable string.',
    ),
    firstTimestamp: time(
      'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
    ),
    lastTimestamp: time('The time at which the most recent occurrence of this event was recorded.'),
    count: int('The number of times this event has occurred.'),
    type: enumOf(
      ['Normal', 'Warning'],
      'Type of this event (Normal, Warning), new types could be added in the future',
    ),
    eventTime: time('Time when this Event was first observed.'),
    series: c(
      'EventSeries',
      "Data about the Event series this event represents or nil if it's a singleton Event.",
    ),
    action: str('What action was taken/failed regarding to the Regarding object.'),
    related: c('ObjectReference', 'Optional secondary object for more complex actions.'),
    reportingComponent: str(
      'Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.',
    ),
    reportingInstance: str('ID of the controller instance, e.g. `kubelet-xyzf`.'),
  }),
  EventSource: struct({
    component: str('Component from which the event is generated.'),
    host: str('Node name on which the event is generated.'),
  }),
  EventSeries: struct({
    count: int('Number of occurrences in this series up to the last heartbeat time'),
    lastObservedTime: time('Time of the last occurrence observed'),
  }),
})
