/**
 * The Event table, for core/v1 events and for events.k8s.io/v1 (the same object under other field
 * names, read here through one normalized view).
 */
import type { KubeObject } from '../apimachinery/types'
import { column, nameColumn, objectName, type Printer } from './columns'
import { age } from './duration'
import { count } from './format'
import { parseTime } from '../apimachinery/meta-time'

interface ObjectReference {
  kind?: string
  name?: string
  fieldPath?: string
}

interface EventSource {
  component?: string
  host?: string
}

interface EventSeries {
  count?: number
  lastObservedTime?: string
}

interface CoreEvent extends KubeObject {
  involvedObject?: ObjectReference
  reason?: string
  message?: string
  source?: EventSource
  firstTimestamp?: string | null
  lastTimestamp?: string | null
  count?: number
  type?: string
  eventTime?: string | null
  series?: EventSeries | null
  reportingComponent?: string
  reportingInstance?: string
}

interface EventsV1Event extends KubeObject {
  regarding?: ObjectReference
  reason?: string
  note?: string
  type?: string
  eventTime?: string | null
  series?: EventSeries | null
  reportingController?: string
  reportingInstance?: string
  deprecatedSource?: EventSource
  deprecatedFirstTimestamp?: string | null
  deprecatedLastTimestamp?: string | null
  deprecatedCount?: number
}

/** The core/v1 view of an event of either API group. */
function asCoreEvent(obj: KubeObject): CoreEvent {
  if (!obj.apiVersion?.startsWith('events.k8s.io/')) return obj as CoreEvent
  const e = obj as EventsV1Event
  return {
    ...e,
    involvedObject: e.regarding,
    message: e.note,
    source: e.deprecatedSource,
    firstTimestamp: e.deprecatedFirstTimestamp,
    lastTimestamp: e.deprecatedLastTimestamp,
    count: e.deprecatedCount,
    reportingComponent: e.reportingController,
  }
}

/** `kind/name` in lower-case kind, or just the kind when the event is about no named object. */
function eventObject(ref: ObjectReference | undefined): string {
  const kind = (ref?.kind ?? '').toLowerCase()
  return ref?.name ? `${kind}/${ref.name}` : kind
}

/** `component, host`, each falling back to the reporting controller and instance. */
function eventSource(e: CoreEvent): string {
  const component = e.source?.component || e.reportingComponent || ''
  const instance = e.source?.host || e.reportingInstance || ''
  return instance ? `${component}, ${instance}` : component
}

export interface EventTimes {
  lastSeen: string
  firstSeen: string
  count: number
}

/**
 * Newer clients record eventTime and series instead of first/last timestamps and count, so
 * each value falls back to its newer counterpart; a singleton event without a count saw one
 * occurrence.
 */
export function eventTimes(e: CoreEvent, now: number): EventTimes {
  const firstSeen =
    parseTime(e.firstTimestamp) !== undefined ? age(e.firstTimestamp, now) : age(e.eventTime, now)
  let lastSeen = parseTime(e.lastTimestamp) !== undefined ? age(e.lastTimestamp, now) : firstSeen
  let n = count(e.count)
  if (e.series && typeof e.series === 'object') {
    lastSeen = age(e.series.lastObservedTime, now)
    n = count(e.series.count)
  } else if (n === 0) {
    n = 1
  }
  return { lastSeen, firstSeen, count: n }
}

export const eventPrinter: Printer = {
  columns: [
    column(
      'Last Seen',
      'string',
      'The time at which the most recent occurrence of this event was recorded.',
    ),
    column('Type', 'string', 'Type of this event (Normal, Warning).'),
    column(
      'Reason',
      'string',
      'A short, machine understandable string giving the reason for the event.',
    ),
    column('Object', 'string', 'The object this event is about.'),
    column(
      'Subobject',
      'string',
      'The part of the object the event is about, such as a container.',
      1,
    ),
    column('Source', 'string', 'The component reporting this event.', 1),
    column('Message', 'string', 'A human-readable description of the event.'),
    column('First Seen', 'string', 'The time at which the event was first recorded.', 1),
    column('Count', 'string', 'The number of times this event has occurred.', 1),
    { ...nameColumn, priority: 1 },
  ],
  cells(obj, now) {
    const e = asCoreEvent(obj)
    const times = eventTimes(e, now)
    return [
      times.lastSeen,
      e.type ?? '',
      e.reason ?? '',
      eventObject(e.involvedObject),
      e.involvedObject?.fieldPath ?? '',
      eventSource(e),
      (e.message ?? '').trim(),
      times.firstSeen,
      times.count,
      objectName(obj),
    ]
  },
}
