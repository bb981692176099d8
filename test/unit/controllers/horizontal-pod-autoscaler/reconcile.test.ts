import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  customResourceDefinitions,
  daemonSets,
  deployments,
  replicationControllers,
  statefulSets,
} from '../../../../src/controllers/resources'
import {
  horizontalPodAutoscalers,
  reconcileHorizontalPodAutoscaler,
} from '../../../../src/controllers/horizontal-pod-autoscaler'
import type { Action, Cache } from '../../../../src/controllers/runtime/types'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { formatTime } from '../../../../src/apimachinery/meta-time'
import { failure } from '../../../../src/apimachinery/status'

const now = Date.parse('2025-06-01T12:00:00Z')

const deployment = (replicas: number): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'ns', uid: 'd1' },
  spec: { replicas, selector: { matchLabels: { app: 'web' } } },
  status: { replicas },
})

function autoscaler(
  spec: Record<string, unknown> = {},
  status?: Record<string, unknown>,
): KubeObject {
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'ns', uid: 'h1', generation: 1 },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 3,
      maxReplicas: 5,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } },
        },
      ],
      ...spec,
    },
    status: status ?? { desiredReplicas: 0 },
  }
}

const pass = (cache: Cache) => reconcileHorizontalPodAutoscaler('ns/web', cache, now)
const statusOf = (actions: Action[]) => {
  const update = actions.find((a) => a.type === 'updateStatus')
  return update?.type === 'updateStatus'
    ? (update.object.status as Record<string, unknown>)
    : undefined
}
const conditionsOf = (actions: Action[]) =>
  Object.fromEntries(
    (
      (statusOf(actions)?.conditions ?? []) as {
        type: string
        status: string
        reason: string
        message: string
      }[]
    ).map((c) => [c.type, c]),
  )
const eventsOf = (actions: Action[]) =>
  actions.flatMap((a) => (a.type === 'event' ? [`${a.eventType} ${a.reason}: ${a.message}`] : []))
const scalesOf = (actions: Action[]) => actions.flatMap((a) => (a.type === 'scale' ? [a] : []))

const noMetricsApi =
  'unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)'

describe('horizontal pod autoscaler without a metrics API', () => {
  it('scales a target below minReplicas up to it through the scale subresource', () => {
    const { actions, requeueAfterMs } = pass(
      new MemoryCache().put(horizontalPodAutoscalers, autoscaler()).put(deployments, deployment(1)),
    )
    expect(scalesOf(actions)).toEqual([
      { type: 'scale', resource: deployments, namespace: 'ns', name: 'web', replicas: 3 },
    ])
    expect(statusOf(actions)).toMatchObject({
      currentReplicas: 1,
      desiredReplicas: 3,
      lastScaleTime: formatTime(now),
    })
    expect(conditionsOf(actions).AbleToScale).toMatchObject({
      status: 'True',
      reason: 'SucceededRescale',
      message: 'the HPA controller was able to update the target scale to 3',
    })
    expect(eventsOf(actions)).toEqual([
      'Normal SuccessfulRescale: New size: 3; reason: Current number of replicas below Spec.MinReplicas',
    ])
    expect(requeueAfterMs).toBe(15_000)
  })

  it('scales a target above maxReplicas down to it', () => {
    const { actions } = pass(
      new MemoryCache()
        .put(horizontalPodAutoscalers, autoscaler({ maxReplicas: 4 }))
        .put(deployments, deployment(6)),
    )
    expect(scalesOf(actions).map((a) => a.replicas)).toEqual([4])
    expect(statusOf(actions)).toMatchObject({ currentReplicas: 6, desiredReplicas: 4 })
    expect(eventsOf(actions)).toEqual([
      'Normal SuccessfulRescale: New size: 4; reason: Current number of replicas above Spec.MaxReplicas',
    ])
  })

  it('defaults minReplicas to 1 and leaves a target scaled to zero alone', () => {
    const { actions } = pass(
      new MemoryCache()
        .put(horizontalPodAutoscalers, autoscaler({ minReplicas: undefined }))
        .put(deployments, deployment(0)),
    )
    expect(scalesOf(actions)).toEqual([])
    expect(statusOf(actions)).toEqual({ desiredReplicas: 0, conditions: expect.any(Array) })
    expect(conditionsOf(actions).ScalingActive).toMatchObject({
      status: 'False',
      reason: 'ScalingDisabled',
      message: 'scaling is disabled since the replica count of the target is zero',
    })
  })

  it('within bounds, fails every metric as upstream does when metrics.k8s.io is absent, and does not scale', () => {
    const hpa = autoscaler(
      {},
      { currentReplicas: 3, desiredReplicas: 3, lastScaleTime: '2025-06-01T11:00:00Z' },
    )
    const { actions } = pass(
      new MemoryCache().put(horizontalPodAutoscalers, hpa).put(deployments, deployment(4)),
    )
    expect(scalesOf(actions)).toEqual([])
    expect(statusOf(actions)).toMatchObject({
      currentReplicas: 4,
      desiredReplicas: 3,
      lastScaleTime: '2025-06-01T11:00:00Z',
      currentMetrics: [{ type: '' }],
    })
    const conditions = conditionsOf(actions)
    expect(conditions.AbleToScale).toMatchObject({ status: 'True', reason: 'SucceededGetScale' })
    expect(conditions.ScalingActive).toMatchObject({
      status: 'False',
      reason: 'FailedGetResourceMetric',
      message: `the HPA was unable to compute the replica count: failed to get cpu utilization: ${noMetricsApi}`,
    })
    expect(eventsOf(actions)).toEqual([
      `Warning FailedGetResourceMetric: failed to get cpu utilization: ${noMetricsApi}`,
      `Warning FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: ${noMetricsApi}`,
    ])
  })

  it('names each failing metric source, the first one in the condition', () => {
    const metrics = [
      {
        type: 'Pods',
        pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '10' } },
      },
      {
        type: 'Resource',
        resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } },
      },
    ]
    const { actions } = pass(
      new MemoryCache()
        .put(horizontalPodAutoscalers, autoscaler({ metrics }))
        .put(deployments, deployment(3)),
    )
    expect(conditionsOf(actions).ScalingActive).toMatchObject({
      status: 'False',
      reason: 'FailedGetPodsMetric',
    })
    const events = eventsOf(actions)
    expect(events[0]).toMatch(
      /^Warning FailedGetPodsMetric: unable to get metric rps: .*custom metrics API/,
    )
    expect(events[1]).toBe(
      'Warning FailedGetResourceMetric: failed to get memory usage: unable to get metrics for resource memory: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)',
    )
    expect(events[2]).toMatch(
      /^Warning FailedComputeMetricsReplicas: invalid metrics \(2 invalid out of 2\), first error is: failed to get pods metric value: /,
    )
    expect(statusOf(actions)?.currentMetrics).toEqual([{ type: '' }, { type: '' }])
  })

  it('writes no status when nothing changed, and keeps lastTransitionTime', () => {
    const cache = new MemoryCache().put(deployments, deployment(4))
    const first = pass(
      new MemoryCache().put(horizontalPodAutoscalers, autoscaler()).put(deployments, deployment(4)),
    )
    const settled = { ...autoscaler(), status: statusOf(first.actions) }
    const later = reconcileHorizontalPodAutoscaler(
      'ns/web',
      cache.put(horizontalPodAutoscalers, settled),
      now + 60_000,
    )
    expect(later.actions.filter((a) => a.type === 'updateStatus')).toEqual([])
    // The warnings repeat every sync, as upstream's do.
    expect(eventsOf(later.actions)).toHaveLength(2)
  })

  it('reports a refused scale write as FailedRescale and AbleToScale=False, then writes the scale again after the sync period', () => {
    const hpa = autoscaler(
      {},
      { currentReplicas: 1, desiredReplicas: 1, lastScaleTime: '2025-06-01T11:00:00Z' },
    )
    const cache = new MemoryCache()
      .put(horizontalPodAutoscalers, hpa)
      .put(deployments, deployment(1))
    const [scale] = scalesOf(pass(cache).actions)
    const error =
      "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'cap' with binding 'cap' denied request: at most 2 replicas"
    const refused = { action: scale!, status: failure(403, 'Forbidden', error) }
    const next = reconcileHorizontalPodAutoscaler('ns/web', cache, now + 10, refused)
    expect(scalesOf(next.actions)).toEqual([])
    expect(eventsOf(next.actions)).toEqual([
      `Warning FailedRescale: New size: 3; reason: Current number of replicas below Spec.MinReplicas; error: ${error}`,
    ])
    expect(conditionsOf(next.actions).AbleToScale).toMatchObject({
      status: 'False',
      reason: 'FailedUpdateScale',
      message: `the HPA controller was unable to update the target scale: ${error}`,
    })
    expect(statusOf(next.actions)).toMatchObject({
      currentReplicas: 1,
      desiredReplicas: 1,
      lastScaleTime: '2025-06-01T11:00:00Z',
    })
    expect(next.requeueAfterMs).toBe(15_000)
    // A refusal of another size, or of another target, is not this pass's failure: it writes the scale.
    expect(
      scalesOf(
        reconcileHorizontalPodAutoscaler('ns/web', cache, now + 10, {
          ...refused,
          action: { ...scale!, replicas: 4 },
        }).actions,
      ),
    ).toHaveLength(1)
    expect(
      scalesOf(
        reconcileHorizontalPodAutoscaler('ns/web', cache, now + 10, {
          ...refused,
          action: { ...scale!, resource: statefulSets },
        }).actions,
      ),
    ).toHaveLength(1)
    // The pass after the sync period, with no refusal to report, writes the scale again.
    expect(
      scalesOf(reconcileHorizontalPodAutoscaler('ns/web', cache, now + 15_010).actions),
    ).toEqual([scale])
  })

  it('reports a missing target as FailedGetScale', () => {
    const { actions } = pass(new MemoryCache().put(horizontalPodAutoscalers, autoscaler()))
    expect(scalesOf(actions)).toEqual([])
    expect(conditionsOf(actions).AbleToScale).toMatchObject({
      status: 'False',
      reason: 'FailedGetScale',
      message: `the HPA controller was unable to get the target's current scale: deployments.apps "web" not found`,
    })
    expect(eventsOf(actions)).toEqual(['Warning FailedGetScale: deployments.apps "web" not found'])
  })

  it('refuses kinds without a scale subresource and unknown kinds as the scale client does', () => {
    const daemonSet = autoscaler({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'web' },
    })
    const ds = pass(
      new MemoryCache()
        .put(horizontalPodAutoscalers, daemonSet)
        .put(daemonSets, { ...deployment(1), kind: 'DaemonSet' }),
    )
    expect(eventsOf(ds.actions)).toEqual([
      'Warning FailedGetScale: the server could not find the requested resource',
    ])
    const unknown = autoscaler({
      scaleTargetRef: { apiVersion: 'example.com/v1', kind: 'Widget', name: 'web' },
    })
    expect(
      eventsOf(pass(new MemoryCache().put(horizontalPodAutoscalers, unknown)).actions),
    ).toEqual(['Warning FailedGetScale: no matches for kind "Widget" in group "example.com"'])
    // A custom resource's kind is known, and said not to be driven.
    const crd: KubeObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: { group: 'example.com', names: { kind: 'Widget', plural: 'widgets' } },
    }
    expect(
      eventsOf(
        pass(
          new MemoryCache()
            .put(horizontalPodAutoscalers, unknown)
            .put(customResourceDefinitions, crd),
        ).actions,
      ),
    ).toEqual([
      "Warning FailedGetScale: scaling custom resources (Widget.example.com) is not served by this cluster's horizontal pod autoscaler",
    ])
  })

  it('scales StatefulSets and ReplicationControllers through their scale subresources', () => {
    const sts = autoscaler({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web' },
    })
    expect(
      scalesOf(
        pass(
          new MemoryCache()
            .put(horizontalPodAutoscalers, sts)
            .put(statefulSets, { ...deployment(1), kind: 'StatefulSet' }),
        ).actions,
      ),
    ).toMatchObject([{ resource: statefulSets, replicas: 3 }])
    const rc = autoscaler({
      scaleTargetRef: { apiVersion: 'v1', kind: 'ReplicationController', name: 'web' },
    })
    const rcObject: KubeObject = {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'web', namespace: 'ns' },
      spec: { replicas: 9, selector: { app: 'web' } },
      status: { replicas: 9 },
    }
    expect(
      scalesOf(
        pass(
          new MemoryCache().put(horizontalPodAutoscalers, rc).put(replicationControllers, rcObject),
        ).actions,
      ),
    ).toMatchObject([{ resource: replicationControllers, replicas: 5 }])
  })
})
