import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { formatCause } from '../../../../src/apimachinery/field-errors'
import { defaultHorizontalPodAutoscaler } from '../../../../src/apis/autoscaling/defaults'
import { validateHorizontalPodAutoscaler } from '../../../../src/apis/autoscaling/validate-hpa'
import { hpaFromV1, hpaToV1 } from '../../../../src/apis/autoscaling/v1-view'
import { formatHpaMetrics } from '../../../../src/printers/autoscaling'

const hpa = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'ns', resourceVersion: '7' },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    maxReplicas: 5,
    ...spec,
  },
  ...(status ? { status } : {}),
})
const errors = (spec: Record<string, unknown>) =>
  validateHorizontalPodAutoscaler(hpa(spec)).map(formatCause)
const cpu = (averageUtilization: number) => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } },
})

describe('HorizontalPodAutoscaler validation', () => {
  it('accepts a valid autoscaler', () => {
    expect(errors({ minReplicas: 1, metrics: [cpu(50)] })).toEqual([])
  })

  it('bounds minReplicas and maxReplicas as upstream', () => {
    expect(errors({ minReplicas: 0 })).toEqual([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    ])
    expect(errors({ minReplicas: 4, maxReplicas: 3 })).toEqual([
      'spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`',
    ])
    expect(errors({ maxReplicas: 0 })).toEqual([
      'spec.maxReplicas: Invalid value: 0: must be greater than 0',
    ])
    expect(errors({ scaleTargetRef: { kind: 'Deployment', name: 'a/b' } })).toEqual([
      'spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\'',
    ])
    expect(errors({ scaleTargetRef: {} })).toEqual([
      'spec.scaleTargetRef.kind: Required value',
      'spec.scaleTargetRef.name: Required value',
    ])
  })

  it('checks each metric source', () => {
    expect(errors({ metrics: [{ type: 'Resource' }] })).toEqual([
      'spec.metrics[0].resource: Required value: must populate information for the given metric source',
    ])
    expect(errors({ metrics: [{ type: 'Bogus' }] })[0]).toBe(
      'spec.metrics[0].type: Unsupported value: "Bogus": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
    )
    expect(
      errors({
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } },
          },
        ],
      }),
    ).toEqual([
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    ])
    expect(
      errors({
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '-1' } },
          },
        ],
      }),
    ).toEqual([
      'spec.metrics[0].resource.target.averageValue: Invalid value: "-1": must be positive',
    ])
    expect(
      errors({
        metrics: [
          { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue' } } },
        ],
      }),
    ).toEqual([
      'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
    ])
    expect(
      errors({
        metrics: [
          {
            ...cpu(50),
            pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '1' } },
          },
        ],
      }),
    ).toEqual(['spec.metrics[0].pods: Forbidden: must populate the given metric source only'])
  })

  it('checks the scaling behavior', () => {
    const behavior = {
      scaleUp: {
        stabilizationWindowSeconds: 3601,
        selectPolicy: 'Fastest',
        policies: [{ type: 'Pods', value: 0, periodSeconds: 1801 }],
      },
      scaleDown: { policies: [] },
    }
    expect(errors({ behavior })).toEqual([
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Fastest": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
      'spec.behavior.scaleDown.policies: Required value: must specify at least one Policy',
    ])
  })
})

describe('HorizontalPodAutoscaler defaults', () => {
  it('defaults minReplicas, the 80% CPU metric and the behavior rules as autoscaling/v2 does', () => {
    const obj = hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } })
    defaultHorizontalPodAutoscaler(obj)
    expect(obj.spec).toMatchObject({
      minReplicas: 1,
      metrics: [cpu(80)],
      behavior: {
        scaleUp: {
          stabilizationWindowSeconds: 0,
          selectPolicy: 'Max',
          policies: [
            { type: 'Pods', value: 4, periodSeconds: 15 },
            { type: 'Percent', value: 100, periodSeconds: 15 },
          ],
        },
        scaleDown: {
          stabilizationWindowSeconds: 60,
          selectPolicy: 'Max',
          policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
        },
      },
    })
    const explicit = hpa({ minReplicas: 2, metrics: [cpu(50)] })
    defaultHorizontalPodAutoscaler(explicit)
    expect(explicit.spec).toMatchObject({ minReplicas: 2, metrics: [cpu(50)] })
    expect(explicit.spec).not.toHaveProperty('behavior')
  })
})

describe('autoscaling/v1 view', () => {
  const memory = {
    type: 'Resource',
    resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } },
  }
  const stored = hpa(
    {
      minReplicas: 2,
      metrics: [memory, cpu(70)],
      behavior: { scaleUp: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
    },
    {
      currentReplicas: 3,
      desiredReplicas: 4,
      currentMetrics: [
        { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 65 } } },
      ],
      conditions: [{ type: 'AbleToScale', status: 'True' }],
    },
  )

  it('shows the CPU utilization target and current value as v1 fields', () => {
    expect(hpaToV1(stored)).toEqual({
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v1',
      metadata: stored.metadata,
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 70,
      },
      status: { currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 65 },
    })
  })

  it('writes a v1 object back as v2, keeping what v1 cannot hold', () => {
    const edited = hpaToV1(stored)
    edited.spec = { ...(edited.spec as object), targetCPUUtilizationPercentage: 40, maxReplicas: 9 }
    const back = hpaFromV1(edited, stored)
    expect(back.apiVersion).toBe('autoscaling/v2')
    expect(back.spec).toEqual({
      ...(stored.spec as object),
      maxReplicas: 9,
      metrics: [cpu(40), memory],
    })
    expect(back.status).toEqual(stored.status)
    // Without a target the CPU metric goes; a new v1 object gets the default on create.
    expect(
      (
        hpaFromV1(
          {
            ...edited,
            spec: { ...(edited.spec as object), targetCPUUtilizationPercentage: undefined },
          },
          stored,
        ).spec as { metrics: unknown }
      ).metrics,
    ).toEqual([memory])
    expect(
      (
        hpaFromV1({
          metadata: { name: 'new' },
          spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, maxReplicas: 2 },
        }).spec as { metrics: unknown }
      ).metrics,
    ).toEqual([])
  })
})

describe('kubectl get hpa TARGETS', () => {
  it('prints each metric as upstream formatHPAMetrics does', () => {
    expect(formatHpaMetrics(hpa({ metrics: [cpu(50)] }))).toBe('cpu: <unknown>/50%')
    expect(
      formatHpaMetrics(
        hpa(
          { metrics: [cpu(50)] },
          {
            currentMetrics: [
              {
                type: 'Resource',
                resource: { name: 'cpu', current: { averageUtilization: 12, averageValue: '3m' } },
              },
            ],
          },
        ),
      ),
    ).toBe('cpu: 12%/50%')
    const metrics = [
      {
        type: 'Resource',
        resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } },
      },
      {
        type: 'Pods',
        pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '1k' } },
      },
      {
        type: 'External',
        external: {
          metric: { name: 'queue' },
          target: { type: 'AverageValue', averageValue: '30' },
        },
      },
    ]
    expect(formatHpaMetrics(hpa({ metrics }))).toBe(
      'memory: <unknown>/100Mi, <unknown>/1k + 1 more...',
    )
    expect(formatHpaMetrics(hpa({ metrics: [metrics[2]] }))).toBe('<unknown>/30 (avg)')
    expect(formatHpaMetrics(hpa({ metrics: [] }))).toBe('<none>')
  })
})
