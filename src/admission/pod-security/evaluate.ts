/**
 * Evaluating a pod against a level and version (upstream's policy.Evaluator over DefaultChecks):
 * baseline runs every baseline check; restricted runs every restricted check and the baseline
 * checks none of them replaces. Each check runs its revision for the version asked (`latest`, or a
 * version past the newest revision, runs the newest). Results come in upstream's order: baseline
 * checks by ID, then restricted checks by ID.
 */
import type { Json } from '../../apimachinery/json-value'
import type { LevelVersion } from '../../apis/pod-security/levels'
import { baselineContainerChecks } from './checks-baseline-containers'
import { baselinePodChecks } from './checks-baseline-pod'
import { restrictedChecks } from './checks-restricted'
import type { Check, CheckResult, VersionedCheck } from './check-helpers'

const byId = (a: Check, b: Check) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** Every check, in the order their results are reported. */
export const allChecks: readonly Check[] = [
  ...[...baselinePodChecks, ...baselineContainerChecks].sort(byId),
  ...[...restrictedChecks].sort(byId),
]

/** The newest policy version any check has a revision for: `latest` evaluates as it. */
export const newestPolicyMinor = Math.max(
  ...allChecks.flatMap((c) => c.versions.map((v) => v.minimumVersion)),
)

/** The revision of a check that applies at `minor`, if the check exists at that version. */
function revisionAt(check: Check, minor: number): VersionedCheck | undefined {
  let found: VersionedCheck | undefined
  for (const v of check.versions) if (v.minimumVersion <= minor) found = v
  return found
}

/** Each check's result for the pod, privileged running none. */
export function evaluatePod(lv: LevelVersion, meta: Json, spec: Json): CheckResult[] {
  if (lv.level === 'privileged') return []
  const minor =
    lv.version === 'latest' || lv.version > newestPolicyMinor ? newestPolicyMinor : lv.version
  const active = allChecks.flatMap((check) => {
    if (lv.level === 'baseline' && check.level !== 'baseline') return []
    const revision = revisionAt(check, minor)
    return revision ? [{ check, revision }] : []
  })
  const overridden = new Set(
    active.flatMap(({ check, revision }) =>
      check.level === 'restricted' ? (revision.overrides ?? []) : [],
    ),
  )
  return active
    .filter(({ check }) => !overridden.has(check.id))
    .map(({ revision }) => revision.checkPod(meta, spec))
}

/** The forbidden results together: `allowed` when there are none. */
export interface AggregateResult {
  allowed: boolean
  reasons: string[]
  details: string[]
}

export function aggregate(results: readonly CheckResult[]): AggregateResult {
  const bad = results.filter((r) => !r.allowed)
  return {
    allowed: !bad.length,
    reasons: bad.map((r) => r.forbiddenReason || 'unknown forbidden reason'),
    details: bad.map((r) => r.forbiddenDetail ?? ''),
  }
}

/** `host ports, privileged`: the reasons alone, as a namespace's pods are listed. */
export const forbiddenReason = (r: AggregateResult): string => r.reasons.join(', ')

/** `hostPort (container "a" uses hostPort 80), privileged (…)`: each reason with its detail. */
export const forbiddenDetail = (r: AggregateResult): string =>
  r.reasons.map((reason, i) => (r.details[i] ? `${reason} (${r.details[i]})` : reason)).join(', ')

/** The pod evaluated and aggregated in one. */
export const checkPod = (lv: LevelVersion, meta: Json, spec: Json): AggregateResult =>
  aggregate(evaluatePod(lv, meta, spec))
