import { asRecord, jsonEqual, type Json } from '../../apimachinery/json-value'
import { splitKey } from '../../apimachinery/object-key'
import { formatTime } from '../../apimachinery/meta-time'
import type { Action, Cache, Outcome, Refused } from '../runtime/types'
import { sameResource } from '../resources'
import { horizontalPodAutoscalers } from './resources'
import { resolveScaleTarget, type ScaleTarget } from './target'
import { metricFailure } from './metrics'

/** How often each autoscaler is looked at again (--horizontal-pod-autoscaler-sync-period). */
export const SYNC_PERIOD_MS = 15_000

export interface HpaCondition {
  type: string
  status: 'True' | 'False'
  lastTransitionTime: string
  reason: string
  message: string
}

/** setConditionInList: a condition keeps its place; lastTransitionTime moves only when its status changes. */
function setCondition(
  list: HpaCondition[],
  type: string,
  status: 'True' | 'False',
  reason: string,
  message: string,
  now: number,
): HpaCondition[] {
  const existing = list.find((c) => c.type === type)
  const lastTransitionTime =
    existing && existing.status === status ? existing.lastTransitionTime : formatTime(now)
  const next = { type, status, lastTransitionTime, reason, message }
  return existing ? list.map((c) => (c === existing ? next : c)) : [...list, next]
}

/** The API's refusal of the previous pass's write of `replicas` to the target's scale, if it was refused. */
function refusedRescale(
  refused: Refused | undefined,
  target: ScaleTarget,
  namespace: string,
  replicas: number,
): string | undefined {
  const action = refused?.action
  if (action?.type !== 'scale' || !sameResource(action.resource, target.resource)) return undefined
  if (action.namespace !== namespace || action.name !== target.name || action.replicas !== replicas)
    return undefined
  return refused!.status.message ?? ''
}

/** The status as upstream's setStatus writes it: zero currentReplicas and empty lists are left out. */
function statusOf(fields: {
  currentReplicas: number
  desiredReplicas: number
  lastScaleTime?: unknown
  currentMetrics?: unknown
  conditions: HpaCondition[]
}): Json {
  const status: Json = {}
  if (fields.lastScaleTime) status.lastScaleTime = fields.lastScaleTime
  if (fields.currentReplicas) status.currentReplicas = fields.currentReplicas
  status.desiredReplicas = fields.desiredReplicas
  if (Array.isArray(fields.currentMetrics) && fields.currentMetrics.length)
    status.currentMetrics = fields.currentMetrics
  if (fields.conditions.length) status.conditions = fields.conditions
  return status
}

/**
 * The horizontal pod autoscaler's pass over one autoscaler (reconcileAutoscaler in
 * pkg/controller/podautoscaler): reads the target's scale, keeps it within minReplicas and
 * maxReplicas through the scale subresource, and otherwise computes the metrics. No metrics API is
 * served, so every metric fails: ScalingActive goes False with the metric's reason, each pass
 * warns as upstream does, and the replica count is left where it is.
 *
 * A scale write the API refused (quota, a policy, a webhook) is reported by the next pass, as
 * upstream reports it when the write fails: a FailedRescale warning, AbleToScale=False
 * FailedUpdateScale, the desired count and lastScaleTime kept. That pass does not write the scale
 * again; the one after the sync period does.
 */
export function reconcileHorizontalPodAutoscaler(
  key: string,
  cache: Cache,
  now: number,
  refused?: Refused,
): Outcome {
  const { namespace, name } = splitKey(key)
  const hpa = cache.get(horizontalPodAutoscalers, namespace, name)
  if (!hpa || hpa.metadata.deletionTimestamp) return { actions: [] }
  const spec = asRecord(hpa.spec)
  const old = asRecord(hpa.status)
  const actions: Action[] = []
  const event = (eventType: 'Normal' | 'Warning', reason: string, message: string) =>
    actions.push({ type: 'event', involved: hpa, eventType, reason, message })
  let conditions = (Array.isArray(old.conditions) ? old.conditions : []) as HpaCondition[]
  const oldDesired = Number(old.desiredReplicas ?? 0)
  const finish = (status: Json): Outcome => {
    if (!jsonEqual(status, hpa.status))
      actions.push({
        type: 'updateStatus',
        resource: horizontalPodAutoscalers,
        object: { ...hpa, status },
      })
    return { actions, requeueAfterMs: SYNC_PERIOD_MS }
  }

  const resolved = resolveScaleTarget(hpa, cache)
  if (!resolved.ok) {
    event('Warning', 'FailedGetScale', resolved.error)
    conditions = setCondition(
      conditions,
      'AbleToScale',
      'False',
      'FailedGetScale',
      `the HPA controller was unable to get the target's current scale: ${resolved.error}`,
      now,
    )
    return finish({ ...old, conditions })
  }
  const { target } = resolved
  conditions = setCondition(
    conditions,
    'AbleToScale',
    'True',
    'SucceededGetScale',
    "the HPA controller was able to get the target's current scale",
    now,
  )
  const currentReplicas = target.specReplicas
  const minReplicas = typeof spec.minReplicas === 'number' ? spec.minReplicas : 1
  const maxReplicas = Number(spec.maxReplicas ?? 0)

  let desiredReplicas: number
  let rescaleReason: string
  if (currentReplicas === 0 && minReplicas !== 0) {
    conditions = setCondition(
      conditions,
      'ScalingActive',
      'False',
      'ScalingDisabled',
      'scaling is disabled since the replica count of the target is zero',
      now,
    )
    return finish(
      statusOf({
        currentReplicas,
        desiredReplicas: 0,
        lastScaleTime: old.lastScaleTime,
        conditions,
      }),
    )
  } else if (currentReplicas > maxReplicas) {
    rescaleReason = 'Current number of replicas above Spec.MaxReplicas'
    desiredReplicas = maxReplicas
  } else if (currentReplicas < minReplicas) {
    rescaleReason = 'Current number of replicas below Spec.MinReplicas'
    desiredReplicas = minReplicas
  } else {
    // computeReplicasForMetrics, with no metrics API to ask.
    if (!target.selector) {
      event('Warning', 'SelectorRequired', 'selector is required')
      conditions = setCondition(
        conditions,
        'ScalingActive',
        'False',
        'InvalidSelector',
        "the HPA target's scale is missing a selector",
        now,
      )
      event('Warning', 'FailedComputeMetricsReplicas', 'selector is required')
      return finish(
        statusOf({
          currentReplicas,
          desiredReplicas: oldDesired,
          lastScaleTime: old.lastScaleTime,
          conditions,
        }),
      )
    }
    const metrics = (Array.isArray(spec.metrics) ? spec.metrics : []).map(asRecord)
    const failures = metrics.map((m) => metricFailure(m, namespace ?? ''))
    for (const f of failures) event('Warning', f.reason, f.error)
    const first = failures[0]
    if (first)
      conditions = setCondition(
        conditions,
        'ScalingActive',
        'False',
        first.reason,
        `the HPA was unable to compute the replica count: ${first.error}`,
        now,
      )
    event(
      'Warning',
      'FailedComputeMetricsReplicas',
      `invalid metrics (${failures.length} invalid out of ${metrics.length}), first error is: ${first?.wrapped ?? ''}`,
    )
    // Upstream keeps one empty status per metric it could not read.
    const currentMetrics = metrics.map(() => ({ type: '' }))
    return finish(
      statusOf({
        currentReplicas,
        desiredReplicas: oldDesired,
        lastScaleTime: old.lastScaleTime,
        currentMetrics,
        conditions,
      }),
    )
  }

  const failure = refusedRescale(refused, target, namespace ?? '', desiredReplicas)
  if (failure !== undefined) {
    event(
      'Warning',
      'FailedRescale',
      `New size: ${desiredReplicas}; reason: ${rescaleReason}; error: ${failure}`,
    )
    conditions = setCondition(
      conditions,
      'AbleToScale',
      'False',
      'FailedUpdateScale',
      `the HPA controller was unable to update the target scale: ${failure}`,
      now,
    )
    return finish(
      statusOf({
        currentReplicas,
        desiredReplicas: oldDesired,
        lastScaleTime: old.lastScaleTime,
        conditions,
      }),
    )
  }
  actions.push({
    type: 'scale',
    resource: target.resource,
    namespace: namespace ?? '',
    name: target.name,
    replicas: desiredReplicas,
  })
  conditions = setCondition(
    conditions,
    'AbleToScale',
    'True',
    'SucceededRescale',
    `the HPA controller was able to update the target scale to ${desiredReplicas}`,
    now,
  )
  event('Normal', 'SuccessfulRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}`)
  return finish(
    statusOf({ currentReplicas, desiredReplicas, lastScaleTime: formatTime(now), conditions }),
  )
}
