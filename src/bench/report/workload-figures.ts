/** The workload scenarios' figures: scheduling, deployments, pod replacement, node loss, idle alarms and pod start. */
import type { Outcome } from '../scenarios/outcome'
import type { PodStartResult } from '../scenarios/pod-start'
import type { WorkloadResult } from '../scenarios/workload'
import { round } from '../stats'
import { figure, skipped, type Figure } from './figure'
import { GOALS, meets, type Goal, type Key, type WORKLOAD_KEYS } from './keys'

/** One figure per workload key: measured once, so its value is the single run's. */
export function workloadFigures(
  w: WorkloadResult | undefined,
): Record<(typeof WORKLOAD_KEYS)[number], Figure> {
  const none = (unit: string, key: Key) =>
    skipped(unit, 'workload scenarios skipped with --no-workload', GOALS[key])
  if (!w) {
    return {
      schedule_pods_per_s: none('pods/s', 'schedule_pods_per_s'),
      deploy_1000_over_100_nodes_s: none('s', 'deploy_1000_over_100_nodes_s'),
      pod_replace_p99_ms: none('ms', 'pod_replace_p99_ms'),
      node_loss_recover_s: none('s', 'node_loss_recover_s'),
      idle_controller_alarms_per_min: none('alarms/min', 'idle_controller_alarms_per_min'),
      container_pod_start_p99_ms: none('ms', 'container_pod_start_p99_ms'),
      process_pod_start_p99_ms: none('ms', 'process_pod_start_p99_ms'),
    }
  }
  const s = w.sizes
  const one = <T extends object>(
    key: Key,
    unit: string,
    o: Outcome<T>,
    value: (r: T) => number,
    details: (r: T) => Record<string, unknown>,
    at?: string,
  ): Figure => {
    if ('error' in o) return skipped(unit, o.error, GOALS[key])
    const f = figure(key, unit, [value(o)], 'single', details(o))
    if (at) f.at = at
    return f
  }
  return {
    schedule_pods_per_s: one(
      'schedule_pods_per_s',
      'pods/s',
      w.schedule,
      (r) => r.podsPerSecond,
      (r) => ({
        pods: r.pods,
        nodes: r.nodes,
        seconds: r.seconds,
        create_seconds: r.createSeconds,
        create_errors: r.createErrors,
        ...(r.createFirstError ? { create_first_error: r.createFirstError } : {}),
        what: 'pods created through the API at c=16 onto Ready sim nodes; first create sent → last pod seen bound (watch), pods ÷ that time',
      }),
      s.schedulePods === 1_000 && s.nodes === 100
        ? undefined
        : `${s.schedulePods} pods, ${s.nodes} nodes`,
    ),
    deploy_1000_over_100_nodes_s: one(
      'deploy_1000_over_100_nodes_s',
      's',
      w.deploy,
      (r) => r.seconds,
      (r) => ({
        replicas: r.replicas,
        nodes: r.nodes,
        pods_running_s: r.podsRunningSeconds,
        what: 'Deployment created → every pod Running (watch) and status.availableReplicas = replicas at its generation (polled)',
      }),
      s.deployReplicas === 1_000 && s.nodes === 100
        ? undefined
        : `${s.deployReplicas} replicas, ${s.nodes} nodes`,
    ),
    pod_replace_p99_ms: one(
      'pod_replace_p99_ms',
      'ms',
      w.replace,
      (r) => r.latency.p99,
      (r) => ({
        trials: r.trials,
        timed_out: r.failed,
        replicas: r.replicas,
        p50_ms: r.latency.p50,
        p90_ms: r.latency.p90,
        max_ms: r.latency.max,
        what: 'DELETE of one Running pod of a Deployment → a new pod of it seen Running (watch), sequential trials',
      }),
      s.replaceTrials === 100 ? undefined : `${s.replaceTrials} trials`,
    ),
    node_loss_recover_s: one(
      'node_loss_recover_s',
      's',
      w.nodeLoss,
      (r) => r.seconds,
      (r) => ({
        pods: r.pods,
        spare_nodes: r.spareNodes,
        grace_period_s: r.gracePeriodSeconds,
        toleration_s: r.tolerationSeconds,
        first_eviction_s: r.firstEvictionSeconds,
        what: 'sim agent hosting every replica killed with its process group → all replicas Running on other nodes (watch)',
      }),
      s.lossPods === 10 ? undefined : `${s.lossPods} pods`,
    ),
    idle_controller_alarms_per_min: idleFigure(w),
    container_pod_start_p99_ms: one(
      'container_pod_start_p99_ms',
      'ms',
      w.podStart.docker,
      (r) => r.latency.p99,
      (r) =>
        podStartDetails(
          r,
          'the docker runtime against the local container engine (Docker or Podman), a local image',
        ),
    ),
    process_pod_start_p99_ms: one(
      'process_pod_start_p99_ms',
      'ms',
      w.podStart.process,
      (r) => r.latency.p99,
      (r) => podStartDetails(r, 'the process runtime (sleep as a host process)'),
    ),
  }
}

function podStartDetails(r: PodStartResult, runtime: string): Record<string, unknown> {
  return {
    pods: r.pods,
    p50_ms: r.latency.p50,
    p90_ms: r.latency.p90,
    max_ms: r.latency.max,
    what: `${r.pods} pods created at once on one node agent with ${runtime}: pod POST sent → the pod seen Running (watch)`,
  }
}

/** Alarms per minute of every controller host together while the converged cluster idles; per controller in the details. */
function idleFigure(w: WorkloadResult): Figure {
  const goal = GOALS.idle_controller_alarms_per_min!
  const basis = { controllers: w.controllers }
  const idle = w.idle
  if ('error' in idle) return { ...skipped('alarms/min', idle.error, goal), details: basis }
  const perMinute = (counts: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(counts).map(([c, n]) => [c, round((n * 60) / idle.windowSeconds)]),
    )
  const f = figure(
    'idle_controller_alarms_per_min',
    'alarms/min',
    [idle.alarmsPerMinute],
    'single',
    {
      ...basis,
      window_s: idle.windowSeconds,
      nodes: idle.nodes,
      pods: idle.pods,
      cluster_pods: idle.clusterPods,
      alarms_per_min_by_controller: perMinute(idle.alarms),
      notifications_per_min_by_controller: perMinute(idle.notifications),
      reconciles_in_window_by_controller: idle.reconciles,
      what: 'a Deployment converged over the sim nodes, then GET /metrics (edgeplane_controller_alarms_total) read before and after an idle window; node heartbeats go on',
    },
  )
  f.goal = `${goal.op} ${goal.target}`
  f.verdict = meets(idle.alarmsPerMinute, goal) ? 'meets' : 'misses'
  const nominal =
    w.sizes.idlePods === 100 && w.sizes.nodes === 100 && w.sizes.idleWindowMs === 60_000
  if (!nominal) f.at = `${idle.pods} pods, ${idle.nodes} nodes, ${round(idle.windowSeconds)} s`
  return f
}
