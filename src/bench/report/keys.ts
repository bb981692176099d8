/** The keys of the benchmark report, and the goals the figures are held to. */
import { productionLimits } from '../../limits/production'

export interface Goal {
  op: '>=' | '<=' | '<'
  target: number
}

export const MEASURED_KEYS = [
  'create_per_s_c16',
  'floor_do_insert_per_s_c16',
  'create_vs_floor',
  'etcd_put_per_s_c16',
  'create_vs_etcd',
  'create_p99_ms',
  'get_p99_ms',
  'floor_do_get_p99_ms',
  'list_10k_ms',
  'watch_p99_ms_100',
  'bundle_gzip_bytes',
  'rss_mb_peak',
  'create_rbac_vs_admin',
  'create_rbac_psa_baseline_vs_admin',
  'create_webhook_vs_unselected',
  'create_vap_vs_none',
] as const

/** Measured once per run, with simulated node agents, at the sizes of `WorkloadSizes`. */
export const WORKLOAD_KEYS = [
  'schedule_pods_per_s',
  'deploy_1000_over_100_nodes_s',
  'pod_replace_p99_ms',
  'node_loss_recover_s',
  'idle_controller_alarms_per_min',
  'container_pod_start_p99_ms',
  'process_pod_start_p99_ms',
] as const

/** The edge data path (Ingress through node tunnels, port-forward), measured once with one process node. */
export const DATAPATH_KEYS = [
  'ingress_rps',
  'ingress_p99_ms',
  'ingress_vs_direct',
  'port_forward_mb_per_s',
  'nodeport_rps',
  'nodeport_p99_ms',
] as const

/**
 * The controllers' footprint, measured once with the workload scenarios on a strict-limits control
 * plane: bytes their caches hold per pod of 4 KB against the pod as stored, and store calls per pass.
 */
export const FOOTPRINT_KEYS = [
  'stored_pod_bytes',
  'pods_host_cache_bytes_per_pod',
  'pods_host_cache_vs_stored',
  'all_hosts_cache_bytes_per_pod',
  'scheduler_pass_subrequests_max',
  'controller_pass_subrequests_max',
] as const

/**
 * What the cluster costs at Cloudflare's list prices (src/bench/cost/prices.ts), measured once with
 * the workload scenarios on a strict-limits control plane: idle, and per pod started; and the
 * alarms every store and controller host fires while it idles.
 */
export const COST_KEYS = [
  'idle_usd_per_month_100_nodes',
  'usd_per_1000_pod_starts',
  'rows_written_per_lease_renewal',
  'rows_written_per_pod_create_to_running',
  'idle_alarms_per_min',
] as const

export const ALL_KEYS = [
  ...MEASURED_KEYS,
  ...WORKLOAD_KEYS,
  ...DATAPATH_KEYS,
  ...FOOTPRINT_KEYS,
  ...COST_KEYS,
]

export type Key = (typeof ALL_KEYS)[number]

/** The goal each key is held to; keys without one are reported only. */
export const GOALS: Partial<Record<Key, Goal>> = {
  // A controller sleeps until a change or a deadline concerns it: an idle cluster wakes none.
  idle_controller_alarms_per_min: { op: '<=', target: 1 },
  create_per_s_c16: { op: '>=', target: 400 },
  create_vs_floor: { op: '>=', target: 0.6 },
  create_rbac_vs_admin: { op: '>=', target: 0.9 },
  create_rbac_psa_baseline_vs_admin: { op: '>=', target: 0.9 },
  create_p99_ms: { op: '<=', target: 100 },
  get_p99_ms: { op: '<=', target: 20 },
  list_10k_ms: { op: '<=', target: 600 },
  watch_p99_ms_100: { op: '<=', target: 100 },
  bundle_gzip_bytes: { op: '<', target: 1024 * 1024 },
  schedule_pods_per_s: { op: '>=', target: 100 },
  deploy_1000_over_100_nodes_s: { op: '<=', target: 20 },
  pod_replace_p99_ms: { op: '<=', target: 1000 },
  node_loss_recover_s: { op: '<=', target: 20 },
  // The Kubernetes pod-startup SLO: created → Running within 5 s at p99, images pre-pulled.
  container_pod_start_p99_ms: { op: '<=', target: 5000 },
  process_pod_start_p99_ms: { op: '<=', target: 5000 },
  // Controllers cache only the fields they read: a pod's container environment is none of them.
  pods_host_cache_vs_stored: { op: '<=', target: 0.5 },
  // Half the production limit of subrequests per invocation, the margin the scale bench asks too.
  scheduler_pass_subrequests_max: { op: '<=', target: productionLimits.subrequests / 2 },
  controller_pass_subrequests_max: { op: '<=', target: productionLimits.subrequests / 2 },
  // An idle cluster of 100 nodes within the plan's $5 minimum (a stretch: $1), a node heartbeat of
  // at most two rows, and an idle cluster that wakes its objects about once a minute at most.
  idle_usd_per_month_100_nodes: { op: '<=', target: 5 },
  rows_written_per_lease_renewal: { op: '<=', target: 2 },
  idle_alarms_per_min: { op: '<=', target: 1 },
}

/** Whether a value meets its goal. */
export function meets(value: number, goal: Goal): boolean {
  if (goal.op === '>=') return value >= goal.target
  if (goal.op === '<=') return value <= goal.target
  return value < goal.target
}

/** The goal of a key, if it has one. */
export function goalOf(key: string): Goal | undefined {
  return GOALS[key as Key]
}
