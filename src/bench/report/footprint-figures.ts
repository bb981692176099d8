/** The controllers' footprint figures: cache bytes per pod against the pod as stored, and store calls per pass. */
import type { FootprintResult } from '../scenarios/footprint'
import type { Outcome } from '../scenarios/outcome'
import { figure, skipped, type Figure } from './figure'
import { GOALS, type FOOTPRINT_KEYS, type Key } from './keys'

/** One figure per footprint key, from the single footprint run. */
export function footprintFigures(
  f: Outcome<FootprintResult> | undefined,
): Record<(typeof FOOTPRINT_KEYS)[number], Figure> {
  if (f === undefined || 'error' in f) {
    const why =
      f === undefined
        ? 'the footprint is measured with the workload scenarios (skipped with --no-workload)'
        : f.error
    const none = (unit: string, key: Key) => skipped(unit, why, GOALS[key])
    return {
      stored_pod_bytes: none('bytes', 'stored_pod_bytes'),
      pods_host_cache_bytes_per_pod: none('bytes', 'pods_host_cache_bytes_per_pod'),
      pods_host_cache_vs_stored: none('ratio', 'pods_host_cache_vs_stored'),
      all_hosts_cache_bytes_per_pod: none('bytes', 'all_hosts_cache_bytes_per_pod'),
      scheduler_pass_subrequests_max: none('calls', 'scheduler_pass_subrequests_max'),
      controller_pass_subrequests_max: none('calls', 'controller_pass_subrequests_max'),
    }
  }
  const at = f.pods === 1_000 ? undefined : `${f.pods} pods`
  const one = (key: Key, unit: string, value: number, details: Record<string, unknown>) => {
    const fig = figure(key, unit, [value], 'single', details)
    if (at) fig.at = at
    return fig
  }
  const podsHostPerPod = (f.cacheGrowthByHost[f.podsHost] ?? 0) / f.pods
  const allHostsPerPod = Object.values(f.cacheGrowthByHost).reduce((a, b) => a + b, 0) / f.pods
  const busiest = Object.entries(f.passSubrequests).sort((a, b) => b[1] - a[1])[0]
  const basis = {
    pods: f.pods,
    nodes: f.nodes,
    request_bytes: f.requestBytes,
    limits_exceeded: f.limitsExceeded,
  }
  return {
    stored_pod_bytes: one('stored_pod_bytes', 'bytes', f.storedPodBytes, {
      ...basis,
      what: 'JSON of each pod as GET lists it once Running (managedFields and status included), averaged: what a cache of whole objects would hold',
    }),
    pods_host_cache_bytes_per_pod: one('pods_host_cache_bytes_per_pod', 'bytes', podsHostPerPod, {
      ...basis,
      host: f.podsHost,
      what: `growth of the largest cache of the controller host that watches pods (host "${f.podsHost}", edgeplane_strict_max_cache_bytes) while the pods were created and started, per pod`,
    }),
    pods_host_cache_vs_stored: one(
      'pods_host_cache_vs_stored',
      'ratio',
      podsHostPerPod / f.storedPodBytes,
      {
        what: 'pods_host_cache_bytes_per_pod ÷ stored_pod_bytes: the share of a pod its controllers keep',
      },
    ),
    all_hosts_cache_bytes_per_pod: one('all_hosts_cache_bytes_per_pod', 'bytes', allHostsPerPod, {
      ...basis,
      cache_growth_bytes_by_host: f.cacheGrowthByHost,
      what: "every controller host's largest cache growth added up, per pod: what they would hold together in one isolate",
    }),
    scheduler_pass_subrequests_max: one(
      'scheduler_pass_subrequests_max',
      'calls',
      f.passSubrequests.scheduler ?? 0,
      {
        ...basis,
        what: 'most store calls (subrequests) one scheduler pass made while binding the pods (edgeplane_strict_max_subrequests_per_invocation)',
      },
    ),
    controller_pass_subrequests_max: one(
      'controller_pass_subrequests_max',
      'calls',
      busiest?.[1] ?? 0,
      {
        controller: busiest?.[0],
        by_controller: f.passSubrequests,
        what: 'most store calls one pass of any controller made over the run, each pass held to its budget of calls',
      },
    ),
  }
}
