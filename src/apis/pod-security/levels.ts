/**
 * The Pod Security Standards' vocabulary (k8s.io/pod-security-admission/api): the three levels,
 * policy versions (`latest` or `v1.x`), a namespace's policy from its
 * `pod-security.kubernetes.io/*` labels, and how levels compare. Pure: the admission plugin, the
 * scheduler and the launcher's check of its settings all read it.
 */
import { invalid, type FieldCause } from '../../apimachinery/field-errors'

export type Level = 'privileged' | 'baseline' | 'restricted'

/** A policy version: `latest`, or the minor of a `v1.x`. */
export type Version = 'latest' | number

export interface LevelVersion {
  level: Level
  version: Version
}

/** What a namespace enforces (refuses pods for), audits and warns about. */
export interface Policy {
  enforce: LevelVersion
  audit: LevelVersion
  warn: LevelVersion
}

export const levels: readonly Level[] = ['privileged', 'baseline', 'restricted']

const labelPrefix = 'pod-security.kubernetes.io/'
export const enforceLevelLabel = `${labelPrefix}enforce`
export const enforceVersionLabel = `${labelPrefix}enforce-version`
export const auditLevelLabel = `${labelPrefix}audit`
export const auditVersionLabel = `${labelPrefix}audit-version`
export const warnLevelLabel = `${labelPrefix}warn`
export const warnVersionLabel = `${labelPrefix}warn-version`

export const levelError = `must be one of ${levels.join(', ')}`
export const versionError = 'must be "latest" or "v1.x"'

/** ParseLevel: an unknown level reads as `restricted`, with the error. */
export function parseLevel(value: string): { level: Level; error?: string } {
  return (levels as readonly string[]).includes(value)
    ? { level: value as Level }
    : { level: 'restricted', error: levelError }
}

/** ParseVersion: an unknown version reads as `latest`, with the error. */
export function parseVersion(value: string): { version: Version; error?: string } {
  if (value === 'latest') return { version: 'latest' }
  const m = /^v1\.(0|[1-9][0-9]*)$/.exec(value)
  const minor = m ? Number(m[1]) : NaN
  return Number.isSafeInteger(minor)
    ? { version: minor }
    : { version: 'latest', error: versionError }
}

export const versionString = (v: Version): string => (v === 'latest' ? 'latest' : `v1.${v}`)

/** `baseline:latest`, as upstream prints a LevelVersion. */
export const levelVersionString = (lv: LevelVersion): string =>
  `${lv.level}:${versionString(lv.version)}`

/** CompareLevels: 0 when equal, -1 when `a` is less strict than `b`, 1 when stricter. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(levels.indexOf(a) - levels.indexOf(b))
}

export const sameLevelVersion = (a: LevelVersion, b: LevelVersion): boolean =>
  a.level === b.level && a.version === b.version

/** Two modes are equivalent when both are privileged, or level and version are the same. */
const equivalentMode = (a: LevelVersion, b: LevelVersion) =>
  (a.level === 'privileged' && b.level === 'privileged') || sameLevelVersion(a, b)

export const equivalentPolicies = (a: Policy, b: Policy): boolean =>
  equivalentMode(a.enforce, b.enforce) &&
  equivalentMode(a.audit, b.audit) &&
  equivalentMode(a.warn, b.warn)

export const fullyPrivileged = (p: Policy): boolean =>
  p.enforce.level === 'privileged' &&
  p.audit.level === 'privileged' &&
  p.warn.level === 'privileged'

/**
 * PolicyToEvaluate: the namespace's labels over the cluster defaults. A bad enforce level reads as
 * `restricted` (fail closed), a bad audit or warn level as `privileged` (fail open), a bad version
 * as `latest`; each bad value is returned as a `metadata.labels[…]` error. Warn follows an enforce
 * level set stricter than it unless warn is labelled itself.
 */
export function policyToEvaluate(
  labels: Record<string, string> | undefined,
  defaults: Policy,
): { policy: Policy; errors: FieldCause[] } {
  const p: Policy = {
    enforce: { ...defaults.enforce },
    audit: { ...defaults.audit },
    warn: { ...defaults.warn },
  }
  const errors: FieldCause[] = []
  if (!labels || !Object.keys(labels).length) return { policy: p, errors }
  const has = (label: string) => Object.prototype.hasOwnProperty.call(labels, label)
  const fail = (label: string, error: string | undefined) => {
    if (error) errors.push(invalid(`metadata.labels[${label}]`, labels[label], error))
  }
  const level = (label: string, mode: LevelVersion, failOpen: boolean): boolean => {
    if (!has(label)) return false
    const parsed = parseLevel(labels[label]!)
    mode.level = parsed.error && failOpen ? 'privileged' : parsed.level
    fail(label, parsed.error)
    return !parsed.error
  }
  const version = (label: string, mode: LevelVersion): boolean => {
    if (!has(label)) return false
    const parsed = parseVersion(labels[label]!)
    mode.version = parsed.version
    fail(label, parsed.error)
    return true
  }
  const enforceSet = level(enforceLevelLabel, p.enforce, false)
  version(enforceVersionLabel, p.enforce)
  level(auditLevelLabel, p.audit, true)
  version(auditVersionLabel, p.audit)
  const warnLevelSet = has(warnLevelLabel)
  level(warnLevelLabel, p.warn, true)
  const warnVersionSet = version(warnVersionLabel, p.warn)
  if (!warnLevelSet && enforceSet && compareLevels(p.enforce.level, p.warn.level) > 0) {
    p.warn.level = p.enforce.level
    if (!warnVersionSet) p.warn.version = p.enforce.version
  }
  return { policy: p, errors }
}
