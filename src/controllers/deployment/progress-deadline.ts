import type { Deployment } from '../shared/workloads'

/** math.MaxInt32: the value that means "no deadline" (HasProgressDeadline). */
const NO_DEADLINE = 2147483647

export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec.progressDeadlineSeconds
  return typeof s === 'number' && s !== NO_DEADLINE
}

export function hasRevisionHistoryLimit(d: Deployment): boolean {
  const l = d.spec.revisionHistoryLimit
  return typeof l === 'number' && l !== NO_DEADLINE
}
