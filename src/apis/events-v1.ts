import type { KubeObject } from '../apimachinery/types'
import { invalid, required, toStatusCause, type FieldCause } from '../apimachinery/field-errors'
import type { StatusCause } from '../apimachinery/types'

/**
 * events.k8s.io/v1 Event is core/v1 Event under other field names (upstream's conversion):
 * each pair is `core field` → `events.k8s.io field`; every other field keeps its name.
 */
const renames: [string, string][] = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['reportingComponent', 'reportingController'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
]
const toV1Name = new Map(renames)
const toCoreName = new Map(renames.map(([core, v1]) => [v1, core]))

export const eventsGroup = 'events.k8s.io'
export const eventsApiVersion = 'events.k8s.io/v1'

function renameKeys(
  obj: Record<string, unknown>,
  names: Map<string, string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(obj)) out[names.get(k) ?? k] = v
  return out
}

/** A stored core/v1 Event as events.k8s.io/v1 shows it. */
export function eventToV1(core: KubeObject): KubeObject {
  return {
    ...(renameKeys(core, toV1Name) as KubeObject),
    apiVersion: eventsApiVersion,
    kind: 'Event',
  }
}

/** An events.k8s.io/v1 Event (or a patch of one: top-level keys only are renamed) in core/v1 field names. */
export function eventToCore(v1: Record<string, unknown>): Record<string, unknown> {
  const out = renameKeys(v1, toCoreName)
  if (out.apiVersion === eventsApiVersion) out.apiVersion = 'v1'
  return out
}

/** A JSON Patch (RFC 6902) path over an events.k8s.io/v1 Event, in core/v1 field names. */
export function eventPathToCore(path: string): string {
  const m = /^\/([^/]*)(.*)$/.exec(path)
  if (!m) return path
  return `/${toCoreName.get(m[1]!) ?? m[1]}${m[2]}`
}

/** events.k8s.io/v1 field selectors, as the core fields they select on (upstream's field label conversion). */
const selectableFields = new Map([
  ['metadata.name', 'metadata.name'],
  ['metadata.namespace', 'metadata.namespace'],
  ['reason', 'reason'],
  ['type', 'type'],
  ['reportingController', 'reportingComponent'],
  ...['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map(
    (f): [string, string] => [`regarding.${f}`, `involvedObject.${f}`],
  ),
])

/** The core field for an events.k8s.io/v1 field label, or undefined when it is not selectable. */
export function eventFieldToCore(label: string): string | undefined {
  return selectableFields.get(label)
}

const limits = { reportingInstance: 128, action: 128, reason: 128, note: 1024 }
const qualifiedName =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/

/** The strict create validation upstream applies to Events created through events.k8s.io/v1. */
export function validateEventV1Create(ev: Record<string, unknown>): StatusCause[] {
  const causes: FieldCause[] = []
  const str = (k: string) => (typeof ev[k] === 'string' ? (ev[k] as string) : '')
  const regarding = (ev.regarding ?? {}) as { namespace?: string }
  const namespace = (ev.metadata as { namespace?: string } | undefined)?.namespace ?? ''
  if (!regarding.namespace && namespace !== 'default' && namespace !== 'kube-system')
    causes.push(
      invalid('regarding.namespace', regarding.namespace ?? '', 'does not match event.namespace'),
    )
  if (!str('reportingController')) causes.push(required('reportingController'))
  else if (
    str('reportingController').length > 316 ||
    !qualifiedName.test(str('reportingController'))
  )
    causes.push(
      invalid(
        'reportingController',
        str('reportingController'),
        "must be a qualified name: an optional DNS subdomain prefix and '/', then alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character",
      ),
    )
  for (const k of ['reportingInstance', 'action', 'reason'] as const) {
    if (!str(k)) causes.push(required(k))
    else if (str(k).length > limits[k])
      causes.push(invalid(k, '', `can have at most ${limits[k]} characters`))
  }
  if (str('note').length > limits.note)
    causes.push(invalid('note', '', `can have at most ${limits.note} characters`))
  if (!ev.eventTime) causes.push(required('eventTime'))
  if (ev.type !== 'Normal' && ev.type !== 'Warning')
    causes.push(invalid('type', '', `has invalid value: ${str('type')}`))
  for (const k of ['deprecatedFirstTimestamp', 'deprecatedLastTimestamp'])
    if (ev[k]) causes.push(invalid(k, '', 'needs to be unset'))
  if (ev.deprecatedCount) causes.push(invalid('deprecatedCount', '', 'needs to be unset'))
  const source = (ev.deprecatedSource ?? {}) as { component?: string; host?: string }
  if (source.component || source.host)
    causes.push(invalid('deprecatedSource', '', 'needs to be unset'))
  const series = ev.series as { count?: number; lastObservedTime?: string } | undefined
  if (series) {
    if ((series.count ?? 0) < 2) causes.push(invalid('series.count', '', 'should be at least 2'))
    if (!series.lastObservedTime) causes.push(required('series.lastObservedTime'))
  }
  return causes.map(toStatusCause)
}
