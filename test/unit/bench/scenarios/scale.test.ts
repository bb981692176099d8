import { describe, expect, it } from 'vitest'
import { againstHalfLimits, parseLimitFigures } from '../../../../src/bench/limit-figures'
import { parseOptions } from '../../../../src/bench/options'
import {
  SCALE_CLUSTER_CIDR,
  SCALE_POD_BYTES,
  scalePodJson,
} from '../../../../src/bench/scenarios/scale'
import { nodeCidrSettings } from '../../../../src/apis/node-cidrs'
import { defaultServiceClusterIpRange } from '../../../../src/apis/service-ips'
import { parseCidr } from '../../../../src/apimachinery/cidr'
import { emptyFigures, renderLimitFigures } from '../../../../src/limits/strict'

describe('bench --scale', () => {
  it('is parsed as a positive pod count', () => {
    expect(parseOptions(['--scale', '1000'])).toMatchObject({ scale: 1000 })
    expect(parseOptions([])).not.toHaveProperty('scale')
    expect(() => parseOptions(['--scale', '0'])).toThrow(/positive integer/)
  })

  it('creates pods of 4 KB of JSON', () => {
    const body = scalePodJson('p-123', 'scale-pods')
    expect(Buffer.byteLength(body)).toBe(SCALE_POD_BYTES)
    expect(JSON.parse(body).metadata).toEqual({
      name: 'p-123',
      namespace: 'scale-pods',
      labels: { app: 'scale' },
    })
  })

  it('gives every node of a 1,000,000-pod run a pod CIDR, clear of the service range', () => {
    const settings = nodeCidrSettings(SCALE_CLUSTER_CIDR, undefined)
    expect(settings.cluster.size / 2 ** (32 - settings.maskSize)).toBeGreaterThanOrEqual(
      1_000_000 / 100,
    )
    const services = parseCidr(defaultServiceClusterIpRange)!
    const apart =
      settings.cluster.base + settings.cluster.size <= services.base ||
      services.base + services.size <= settings.cluster.base
    expect(apart).toBe(true)
  })

  it('reads the largest figure over the Worker and every controller from GET /metrics, and where it was seen', () => {
    const worker = { ...emptyFigures(), maxSubrequests: 12, maxRpcBytes: 9_000_000 }
    const scheduler = {
      ...emptyFigures(),
      maxSubrequests: 600,
      maxRpcBytes: 2_000,
      maxCacheBytes: 70_000_000,
      maxPassCpuMs: 40,
    }
    scheduler.breaches.subrequests = 2
    const replicaset = { ...emptyFigures(), maxCacheBytes: 69_000_000 }
    const cronjob = { ...emptyFigures(), maxCacheBytes: 1_000 }
    const text = renderLimitFigures([
      ['scope="worker"', worker],
      ['scope="controller",controller="scheduler",host="pods"', scheduler],
      ['scope="controller",controller="replicaset",host="pods"', replicaset],
      ['scope="controller",controller="cronjob",host="cronjob"', cronjob],
    ])
    const r = parseLimitFigures(text)
    expect(r).toMatchObject({
      max_rpc_bytes: 9_000_000,
      max_subrequests_per_invocation: 600,
      max_cache_bytes_per_host: 70_000_000,
      max_pass_cpu_ms: 40,
      limits_exceeded: 2,
    })
    // The scheduler and the ReplicaSet controller report the one cache of the host they share.
    expect(r.sum_cache_bytes_all_hosts).toBe(70_001_000)
    expect(r.where).toEqual({
      max_rpc_bytes: 'worker',
      max_subrequests_per_invocation: 'scheduler',
      max_cache_bytes_per_host: 'scheduler',
      max_pass_cpu_ms: 'scheduler',
    })
    const verdict = againstHalfLimits(r)
    expect(verdict.max_rpc_bytes).toEqual({
      value: 9_000_000,
      half_limit: 16 * 1024 * 1024,
      within: true,
    })
    expect(verdict.max_subrequests_per_invocation!.within).toBe(false)
    expect(verdict.max_cache_bytes_per_host!.within).toBe(false)
  })
})
