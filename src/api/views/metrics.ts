import type { ApiBindings } from '../bindings'
import { settingsOf } from '../../settings/settings'
import { hostOfController } from '../../controllers/hosts'
import { renderLimitFigures, workerFigures, type LimitFigures } from '../../limits/strict'
import type { ControllerCounters } from '../../../durable-objects/controller-host/counters'
import { gatherControllerCounters } from '../../../durable-objects/controller-host/gather-counters'
import { objectUsageMetrics } from './usage-metrics'

interface Metric {
  name: string
  help: string
  value: (c: ControllerCounters) => number
}

const metrics: Metric[] = [
  {
    name: 'edgeplane_controller_alarms_total',
    help: 'Alarms fired by the controller host (every wake-up).',
    value: (c) => c.alarms,
  },
  {
    name: 'edgeplane_controller_notifications_total',
    help: 'Store change notifications received by the controller host.',
    value: (c) => c.notifications,
  },
  {
    name: 'edgeplane_controller_reconcile_passes_total',
    help: 'Reconcile passes run by the controller host.',
    value: (c) => c.passes,
  },
  {
    name: 'edgeplane_controller_reconcile_pass_failures_total',
    help: 'Reconcile passes that failed as a whole.',
    value: (c) => c.failedPasses,
  },
  {
    name: 'edgeplane_controller_reconciles_total',
    help: 'Keys reconciled over all passes.',
    value: (c) => c.reconciles,
  },
  {
    name: 'edgeplane_controller_counting_since_seconds',
    help: 'When the controller host began counting, in seconds since the epoch.',
    value: (c) => c.since / 1000,
  },
]

/** The counters in Prometheus text exposition format (0.0.4), one series per controller. */
export function renderControllerMetrics(counters: Map<string, ControllerCounters>): string {
  const lines: string[] = []
  for (const m of metrics) {
    lines.push(
      `# HELP ${m.name} ${m.help}`,
      `# TYPE ${m.name} ${m.name.endsWith('_total') ? 'counter' : 'gauge'}`,
    )
    for (const [name, c] of counters)
      lines.push(`${m.name}{controller="${escapeLabel(name)}"} ${m.value(c)}`)
  }
  return lines.join('\n') + '\n'
}

/**
 * `GET /metrics`, as kube-controller-manager serves it: the controllers' counters as Prometheus
 * text; in strict-limits mode also the limit figures and what each store and host is billed for.
 */
export async function serveMetrics(env: ApiBindings): Promise<Response> {
  const counters = await gatherControllerCounters(env)
  let body = renderControllerMetrics(counters)
  if (settingsOf(env).strictLimits) {
    const series: [string, LimitFigures][] = [['scope="worker"', workerFigures]]
    for (const [name, c] of counters)
      if (c.limits)
        series.push([
          `scope="controller",controller="${escapeLabel(name)}",host="${escapeLabel(hostOfController(name))}"`,
          c.limits,
        ])
    body += renderLimitFigures(series)
    body += await objectUsageMetrics(env)
  }
  return new Response(body, {
    headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' },
  })
}

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}
