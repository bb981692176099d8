import { scaledValue } from '../shared/int-or-percent'
import { specReplicas, type Deployment } from '../shared/workloads'

export const RECREATE = 'Recreate'
export const ROLLING_UPDATE = 'RollingUpdate'

/** spec.strategy.type, defaulted as the API does. */
export function strategyType(d: Deployment): string {
  return d.spec.strategy?.type || ROLLING_UPDATE
}

export function isRollingUpdate(d: Deployment): boolean {
  return strategyType(d) === ROLLING_UPDATE
}

/**
 * ResolveFenceposts: maxSurge rounds up and maxUnavailable down; when both resolve to zero (only
 * possible by rounding, validation rejects two literal zeros) one pod may be unavailable, since a
 * surge might be blocked by quota.
 */
export function resolveFenceposts(
  maxSurge: number | string | null | undefined,
  maxUnavailable: number | string | null | undefined,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge ?? 0, desired, true)
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false)
  if (surge === 0 && unavailable === 0) unavailable = 1
  return { surge, unavailable }
}

/** MaxSurge: 0 unless rolling. */
export function maxSurge(d: Deployment): number {
  if (!isRollingUpdate(d)) return 0
  const ru = d.spec.strategy?.rollingUpdate ?? {}
  return resolveFenceposts(ru.maxSurge, ru.maxUnavailable, specReplicas(d)).surge
}

/** MaxUnavailable: 0 unless rolling with replicas, and never more than spec.replicas. */
export function maxUnavailable(d: Deployment): number {
  const replicas = specReplicas(d)
  if (!isRollingUpdate(d) || replicas === 0) return 0
  const ru = d.spec.strategy?.rollingUpdate ?? {}
  return Math.min(resolveFenceposts(ru.maxSurge, ru.maxUnavailable, replicas).unavailable, replicas)
}
