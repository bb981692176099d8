import { generationOf, rsStatus, specReplicas, type ReplicaSet } from '../shared/workloads'
import type { Plan } from './plan'
import { hasRevisionHistoryLimit } from './progress-deadline'
import { byRevision } from './replica-sets'
import { intOr } from '../../apimachinery/json-value'

/**
 * cleanupDeployment: keeps revisionHistoryLimit old ReplicaSets and deletes the oldest revisions
 * beyond it, but only those fully scaled down (spec and status at 0, latest spec observed) and not
 * already being deleted. One scaled in this pass has an unobserved spec, so it waits too.
 */
export function cleanupDeployment(plan: Plan, oldRSs: readonly ReplicaSet[]): void {
  const d = plan.d
  if (!hasRevisionHistoryLimit(d)) return
  const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp)
  const diff = cleanable.length - (d.spec.revisionHistoryLimit ?? 0)
  if (diff <= 0) return
  const oldestFirst = [...cleanable].sort(byRevision)
  for (const rs of oldestFirst.slice(0, diff)) {
    const status = rsStatus(rs)
    if (
      intOr(status.replicas, 0) !== 0 ||
      specReplicas(rs) !== 0 ||
      generationOf(rs) > intOr(status.observedGeneration, 0) ||
      plan.isTouched(rs)
    )
      continue
    plan.delete(rs)
  }
}
