import {
  isEverything,
  selectorFromLabelSelector,
  type LabelSelector,
} from '../../apimachinery/labels'
import type { Cache, Outcome, Refused } from '../runtime/types'
import { reportRefusedReplicaSet } from './create-failure'
import { generationOf } from '../shared/workloads'
import { claimReplicaSets, podsByReplicaSet } from './claim'
import { RECREATE, ROLLING_UPDATE, strategyType } from './fenceposts'
import { Plan } from './plan'
import { rolloutRecreate } from './recreate'
import { rolloutRolling } from './rolling'
import { checkPausedConditions, isScalingEvent, sync, syncStatusOnly } from './sync'
import { splitKey } from '../../apimachinery/object-key'
import { deployments } from '../resources'

/**
 * syncDeployment, as a checklist: read the Deployment (gone → nothing); refuse a selector that
 * selects everything; claim its ReplicaSets; a Deployment being deleted only gets status; record
 * paused/resumed; a paused Deployment or a scaling event is resized without rolling out; otherwise
 * roll out with its strategy. Every step works on the plan, which commits once at the end. A
 * ReplicaSet create the API refused in the previous pass is reported first.
 */
export function reconcileDeployment(
  key: string,
  cache: Cache,
  now: number,
  refused?: Refused,
): Outcome {
  const outcome = syncDeployment(key, cache, now)
  const { namespace, name } = splitKey(key)
  const stored = refused && cache.get(deployments, namespace, name)
  const report = stored ? reportRefusedReplicaSet(stored, refused, now) : []
  return report.length ? { ...outcome, actions: [...report, ...outcome.actions] } : outcome
}

function syncDeployment(key: string, cache: Cache, now: number): Outcome {
  const { namespace, name } = splitKey(key)
  const stored = cache.get(deployments, namespace, name)
  if (!stored) return { actions: [] }
  const plan = new Plan(stored, cache, now)
  const d = plan.d

  let selector: LabelSelector
  try {
    selector = selectorFromLabelSelector(d.spec.selector)
  } catch {
    // An invalid selector cannot select anything; validation keeps it from being stored.
    return { actions: [] }
  }
  if (isEverything(selector)) {
    // Upstream warns on every sync; warning once per generation keeps resyncs from piling up Events.
    if ((d.status.observedGeneration ?? 0) < generationOf(d)) {
      plan.event(
        undefined,
        'Warning',
        'SelectingAll',
        'This deployment is selecting all pods. A non-empty selector is required.',
      )
      d.status.observedGeneration = generationOf(d)
    }
    return plan.commit()
  }

  const rsList = claimReplicaSets(plan, selector)
  if (d.metadata.deletionTimestamp) {
    syncStatusOnly(plan, rsList)
    return plan.commit()
  }
  checkPausedConditions(plan)
  if (d.spec.paused || isScalingEvent(plan, rsList)) {
    sync(plan, rsList)
    return plan.commit()
  }
  switch (strategyType(d)) {
    case RECREATE:
      rolloutRecreate(plan, rsList, podsByReplicaSet(plan, selector, rsList))
      break
    case ROLLING_UPDATE:
      rolloutRolling(plan, rsList)
      break
  }
  return plan.commit()
}
