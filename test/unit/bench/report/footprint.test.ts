import { describe, expect, it } from 'vitest'
import { footprintFigures } from '../../../../src/bench/report/footprint-figures'
import { FOOTPRINT_KEYS } from '../../../../src/bench/report/keys'
import { controllerGauges } from '../../../../src/bench/limit-figures'
import type { FootprintResult } from '../../../../src/bench/scenarios/footprint'

const measured: FootprintResult = {
  pods: 20,
  nodes: 1,
  requestBytes: 4096,
  storedPodBytes: 6000,
  podsHost: 'pods',
  cacheGrowthByHost: { pods: 20 * 900, workloads: 20 * 100 },
  passSubrequests: { scheduler: 6, replicaset: 40, 'node-lifecycle': 3 },
  limitsExceeded: 0,
}

describe('bench footprint figures', () => {
  it('give the pods host cache per pod against the pod as stored, and the busiest passes, judged by their goals', () => {
    const f = footprintFigures(measured)
    expect(Object.keys(f).sort()).toEqual([...FOOTPRINT_KEYS].sort())
    expect(f.stored_pod_bytes).toMatchObject({
      value: 6000,
      unit: 'bytes',
      verdict: 'reported',
      at: '20 pods',
    })
    expect(f.pods_host_cache_bytes_per_pod).toMatchObject({ value: 900, verdict: 'reported' })
    expect(f.pods_host_cache_vs_stored).toMatchObject({
      value: 0.15,
      goal: '<= 0.5',
      verdict: 'meets',
    })
    expect(f.all_hosts_cache_bytes_per_pod).toMatchObject({ value: 1000, verdict: 'reported' })
    expect(f.scheduler_pass_subrequests_max).toMatchObject({
      value: 6,
      goal: '<= 500',
      verdict: 'meets',
    })
    expect(f.controller_pass_subrequests_max).toMatchObject({
      value: 40,
      verdict: 'meets',
      details: { controller: 'replicaset' },
    })
  })

  it('judge a cache holding most of each pod, or a pass past half the subrequest limit, as missing its goal', () => {
    const f = footprintFigures({
      ...measured,
      cacheGrowthByHost: { pods: 20 * 4000 },
      passSubrequests: { scheduler: 600 },
    })
    expect(f.pods_host_cache_vs_stored.verdict).toBe('misses')
    expect(f.scheduler_pass_subrequests_max.verdict).toBe('misses')
    expect(f.controller_pass_subrequests_max).toMatchObject({ value: 600, verdict: 'misses' })
  })

  it('say why there is no figure when the run failed or was skipped', () => {
    const failed = footprintFigures({ error: 'timed out after 30 s waiting for 20 pods Running' })
    for (const key of FOOTPRINT_KEYS)
      expect(failed[key]).toMatchObject({
        value: null,
        verdict: 'not measured',
        skipped: 'timed out after 30 s waiting for 20 pods Running',
      })
    expect(failed.pods_host_cache_vs_stored.goal).toBe('<= 0.5')
    expect(footprintFigures(undefined).stored_pod_bytes.skipped).toContain('--no-workload')
  })

  it('read each controller series of a strict-limits gauge with its host', () => {
    const text = [
      '# TYPE edgeplane_strict_max_cache_bytes gauge',
      'edgeplane_strict_max_cache_bytes{scope="worker"} 0',
      'edgeplane_strict_max_cache_bytes{scope="controller",controller="scheduler",host="pods"} 5120',
      'edgeplane_strict_max_cache_bytes{scope="controller",controller="replicaset",host="pods"} 5120',
      'edgeplane_strict_max_subrequests_per_invocation{scope="controller",controller="scheduler",host="pods"} 7',
    ].join('\n')
    expect(controllerGauges(text, 'edgeplane_strict_max_cache_bytes')).toEqual([
      { controller: 'scheduler', host: 'pods', value: 5120 },
      { controller: 'replicaset', host: 'pods', value: 5120 },
    ])
    expect(controllerGauges(text, 'edgeplane_strict_max_subrequests_per_invocation')).toEqual([
      { controller: 'scheduler', host: 'pods', value: 7 },
    ])
  })
})
