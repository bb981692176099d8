import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  defaultPodResources,
  limitRangerAnnotation,
  podLimitRangeError,
} from '../../../../src/apis/limit-range/admit'
import { defaultLimitRange, validateLimitRange } from '../../../../src/apis/limit-range/object'
import { podManifest } from '../../../helpers'

/** Pod p of namespace ns with these containers. */
const nsPod = (containers: Record<string, unknown>[]): KubeObject =>
  podManifest('p', { namespace: 'ns', containers })

function limitRange(...limits: Record<string, unknown>[]): KubeObject {
  const lr: KubeObject = {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'lr', namespace: 'ns' },
    spec: { limits },
  }
  defaultLimitRange(lr)
  return lr
}

const resourcesOf = (p: KubeObject, i = 0) =>
  (p.spec as { containers: { resources?: unknown }[] }).containers[i]!.resources

describe('LimitRange defaulting of its own items', () => {
  it('a default limit falls back to max; a default request to the default limit, then to min', () => {
    const lr = limitRange({ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } })
    expect((lr.spec as { limits: unknown[] }).limits[0]).toEqual({
      type: 'Container',
      max: { cpu: '2' },
      min: { memory: '64Mi' },
      default: { cpu: '2' },
      defaultRequest: { cpu: '2', memory: '64Mi' },
    })
  })
})

describe('LimitRanger admission of pods', () => {
  it('fills missing requests and limits from the Container defaults and says so in an annotation', () => {
    const p = nsPod([
      { name: 'app', image: 'x' },
      { name: 'side', image: 'x', resources: { limits: { cpu: '300m' } } },
    ])
    defaultPodResources(p, [
      limitRange({
        type: 'Container',
        default: { cpu: '500m', memory: '256Mi' },
        defaultRequest: { cpu: '100m', memory: '128Mi' },
      }),
    ])
    expect(resourcesOf(p, 0)).toEqual({
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '100m', memory: '128Mi' },
    })
    // a container's own limit is its request, as pod defaulting sets it before admission
    expect(resourcesOf(p, 1)).toEqual({
      limits: { cpu: '300m', memory: '256Mi' },
      requests: { cpu: '300m', memory: '128Mi' },
    })
    expect(p.metadata.annotations?.[limitRangerAnnotation]).toBe(
      'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; cpu, memory request for container side; memory limit for container side',
    )
  })

  it('enforces Container min and max with upstream messages', () => {
    const ranges = [limitRange({ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' } })]
    expect(
      podLimitRangeError(
        nsPod([{ name: 'a', resources: { requests: { cpu: '50m' }, limits: { cpu: '50m' } } }]),
        ranges,
      ),
    ).toBe('minimum cpu usage per Container is 100m, but request is 50m')
    expect(
      podLimitRangeError(
        nsPod([{ name: 'a', resources: { requests: { cpu: '500m' }, limits: { cpu: '2' } } }]),
        ranges,
      ),
    ).toBe('maximum cpu usage per Container is 1, but limit is 2')
    expect(
      podLimitRangeError(
        nsPod([{ name: 'a', resources: { requests: { cpu: '500m' }, limits: { cpu: '1' } } }]),
        ranges,
      ),
    ).toBeUndefined()
  })

  it('after defaulting, a pod with nothing set meets the range', () => {
    const ranges = [limitRange({ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' } })]
    const p = nsPod([{ name: 'a' }])
    defaultPodResources(p, ranges)
    // max is the default limit, and the default limit the default request (min comes last)
    expect(resourcesOf(p)).toEqual({ limits: { cpu: '1' }, requests: { cpu: '1' } })
    expect(podLimitRangeError(p, ranges)).toBeUndefined()
  })

  it('enforces maxLimitRequestRatio and Pod totals, aggregating errors', () => {
    const ranges = [
      limitRange(
        { type: 'Container', maxLimitRequestRatio: { memory: '2' } },
        { type: 'Pod', max: { memory: '1Gi' } },
      ),
    ]
    const p = nsPod([
      { name: 'a', resources: { requests: { memory: '256Mi' }, limits: { memory: '768Mi' } } },
      { name: 'b', resources: { requests: { memory: '512Mi' }, limits: { memory: '512Mi' } } },
    ])
    expect(podLimitRangeError(p, ranges)).toBe(
      '[memory max limit to request ratio per Container is 2, but provided ratio is 3.000000, maximum memory usage per Pod is 1Gi, but limit is 1280Mi]',
    )
  })

  it('a missing limit under a max is refused', () => {
    expect(
      podLimitRangeError(nsPod([{ name: 'a' }]), [
        {
          metadata: { name: 'x' },
          spec: { limits: [{ type: 'Container', max: { memory: '1Gi' } }] },
        },
      ]),
    ).toBe('maximum memory usage per Container is 1Gi.  No limit is specified')
  })
})

describe('LimitRange validation', () => {
  it('refuses min over max, defaults outside the range and Pod defaults', () => {
    const lr: KubeObject = {
      metadata: { name: 'lr' },
      spec: {
        limits: [
          { type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } },
          { type: 'Pod', default: { cpu: '1' } },
        ],
      },
    }
    expect(validateLimitRange(lr).map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.limits[0].min[cpu]: min value 2 is greater than max value 1',
      "spec.limits[1].default: may not be specified when `type` is 'Pod'",
    ])
  })
})
