/**
 * Structural schema of events.k8s.io/v1 Event (k8s.io/api/events/v1) as of Kubernetes v1.32: the
 * core/v1 Event under other field names.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import { CORE, group, int, kind, ref, required, str, struct, time } from './dsl'

const EVENTS = 'io.k8s.api.events.v1.'

export const eventsV1: SchemaSet = group(EVENTS, {
  Event: kind(
    'Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system.',
    {
      eventTime: required(
        time('eventTime is the time when this Event was first observed. It is required.'),
      ),
      series: ref(
        EVENTS + 'EventSeries',
        "series is data about the Event series this event represents or nil if it's a singleton Event.",
      ),
      reportingController: str(
        'reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.',
      ),
      reportingInstance: str(
        'reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`.',
      ),
      action: str('action is what action was taken/failed regarding to the regarding object.'),
      reason: str('reason is why the action was taken. It is human-readable.'),
      regarding: ref(
        CORE + 'ObjectReference',
        'regarding contains the object this Event is about.',
      ),
      related: ref(
        CORE + 'ObjectReference',
        'related is the optional secondary object for more complex actions.',
      ),
      note: str('note is a human-readable description of the status of this operation.'),
      type: str(
        'type is the type of this event (Normal, Warning), new types could be added in the future.',
      ),
      deprecatedSource: ref(
        CORE + 'EventSource',
        'deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.',
      ),
      deprecatedFirstTimestamp: time(
        'deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.',
      ),
      deprecatedLastTimestamp: time(
        'deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.',
      ),
      deprecatedCount: int(
        'deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.',
      ),
    },
  ),
  EventSeries: struct({
    count: required(
      int('count is the number of occurrences in this series up to the last heartbeat time.'),
    ),
    lastObservedTime: required(
      time(
        'lastObservedTime is the time when last Event from the series was seen before last heartbeat.',
      ),
    ),
  }),
})
