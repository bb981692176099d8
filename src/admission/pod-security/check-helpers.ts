/**
 * What every Pod Security check is made of (k8s.io/pod-security-admission/policy): a check reads a
 * pod's metadata and spec as stored (JSON) and says whether the pod is allowed, and if not why, in
 * upstream's words.
 */
import { asRecord, objectsOf, type Json } from '../../apimachinery/json-value'

export interface CheckResult {
  allowed: boolean
  /** succinct, always shown: `privileged`, `host namespaces` */
  forbiddenReason?: string
  /** the values at fault, shown for a single object: `container "x" must not set …` */
  forbiddenDetail?: string
}

export type CheckPod = (meta: Json, spec: Json) => CheckResult

/** One revision of a check, from `minimumVersion` (the minor of v1.x) on. */
export interface VersionedCheck {
  minimumVersion: number
  checkPod: CheckPod
  /** baseline checks this restricted one replaces */
  overrides?: readonly string[]
}

export interface Check {
  id: string
  level: 'baseline' | 'restricted'
  versions: readonly VersionedCheck[]
}

export const allowed: CheckResult = { allowed: true }

export const forbidden = (forbiddenReason: string, forbiddenDetail: string): CheckResult => ({
  allowed: false,
  forbiddenReason,
  forbiddenDetail,
})

/** `"a", "b"`: each item in double quotes, unescaped, as upstream's joinQuote. */
export const joinQuote = (items: readonly string[]): string =>
  items.length ? `"${items.join('", "')}"` : ''

export const pluralize = (singular: string, plural: string, count: number): string =>
  count === 1 ? singular : plural

/** `container "a"` / `containers "a", "b"` */
export const containerList = (names: readonly string[]): string =>
  `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`

/** A Go pointer's "is set": present and not null. */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null

/** A Go string field: its value, or "" when unset. */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/** The sorted distinct values (sets.String's List()). */
export const sortedSet = (values: Iterable<string>): string[] => [...new Set(values)].sort()

/** Init containers, then containers, then ephemeral containers, as upstream visits them. */
export function allContainers(spec: Json): Json[] {
  return [
    ...objectsOf(spec.initContainers),
    ...objectsOf(spec.containers),
    ...objectsOf(spec.ephemeralContainers),
  ]
}

export const containerName = (c: Json): string => str(c.name)

/** The container's securityContext, when set. */
export const containerContext = (c: Json): Json | undefined =>
  isSet(c.securityContext) ? asRecord(c.securityContext) : undefined

/** The pod's securityContext, when set. */
export const podContext = (spec: Json): Json | undefined =>
  isSet(spec.securityContext) ? asRecord(spec.securityContext) : undefined

/** The pod's annotations (strings only). */
export function annotationsOf(meta: Json): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(asRecord(meta.annotations)))
    if (typeof v === 'string') out[k] = v
  return out
}

/** spec.os.name is windows: checks that only mean something on Linux pass such a pod from v1.25 on. */
export const isWindowsPod = (spec: Json): boolean =>
  isSet(spec.os) && asRecord(spec.os).name === 'windows'

/** A check's pod-or-containers wording: `pod and containers "a", "b"`. */
export function setters(pod: boolean, containers: readonly string[]): string {
  const parts = pod ? ['pod'] : []
  if (containers.length) parts.push(containerList(containers))
  return parts.join(' and ')
}
