/** The cost figures: the idle cluster's monthly bill, a rollout's cost, and rows written per lease renewal and per pod. */
import { marginalBill, monthlyBill, perMonth, scaleUsage, usageOf, type Bill } from '../cost/bill'
import { PLAN_BASE_USD_PER_MONTH, PRICE_SOURCES, PRICES_READ_ON } from '../cost/prices'
import type { CostResult } from '../scenarios/cost'
import type { Outcome } from '../scenarios/outcome'
import { figure, skipped, type Figure } from './figure'
import { GOALS, type COST_KEYS, type Key } from './keys'

/** The nodes the idle bill is given for. */
export const COST_NODES = 100

/** The idle window's bill for a 30-day month of a cluster of COST_NODES nodes, scaled linearly from a smaller one. */
export function idleMonthlyBill(c: CostResult): Bill {
  return monthlyBill(scaleUsage(perMonth(usageOf(c.idle), c.windowSeconds), COST_NODES / c.nodes))
}

/** The rollout's marginal usage per 1,000 pods at the list rates (stored data, billed by the month held, left out). */
export function podStartsBill(c: CostResult): Bill {
  return marginalBill({ ...scaleUsage(usageOf(c.rollout), 1000 / c.pods), storage: 0 })
}

export function costFigures(
  c: Outcome<CostResult> | undefined,
): Record<(typeof COST_KEYS)[number], Figure> {
  if (c === undefined || 'error' in c) {
    const why =
      c === undefined
        ? 'the cost is measured with the workload scenarios (skipped with --no-workload)'
        : c.error
    const none = (unit: string, key: Key) => skipped(unit, why, GOALS[key])
    return {
      idle_usd_per_month_100_nodes: none('USD', 'idle_usd_per_month_100_nodes'),
      usd_per_1000_pod_starts: none('USD', 'usd_per_1000_pod_starts'),
      rows_written_per_lease_renewal: none('rows', 'rows_written_per_lease_renewal'),
      rows_written_per_pod_create_to_running: none(
        'rows',
        'rows_written_per_pod_create_to_running',
      ),
      idle_alarms_per_min: none('alarms/min', 'idle_alarms_per_min'),
    }
  }
  const basis = {
    nodes: c.nodes,
    pods: c.pods,
    idle_window_s: c.windowSeconds,
    rollout_s: c.rolloutSeconds,
    rows_per_compacted_event:
      c.rowsPerCompactedEvent ??
      'not measured: nothing was compacted within the run (history is kept 5 minutes), so rows written leave out the deletion of log rows',
  }
  const idle = idleMonthlyBill(c)
  const starts = podStartsBill(c)
  const one = (
    key: Key,
    unit: string,
    value: number,
    at: string | undefined,
    details: Record<string, unknown>,
  ) => {
    if (!Number.isFinite(value))
      return skipped(unit, `nothing to divide by (${JSON.stringify(basis)})`, GOALS[key])
    const fig = figure(key, unit, [value], 'single', details)
    if (at) fig.at = at
    return fig
  }
  const scaledNodes =
    c.nodes === COST_NODES
      ? undefined
      : `${c.nodes} nodes, scaled ×${(COST_NODES / c.nodes).toFixed(1)}`
  const replicas = c.pods === 1000 ? undefined : `${c.pods} replicas`
  // not scaled: most alarms are the stores' and the hosts', whose number does not grow with the nodes
  const idleAt =
    c.nodes === COST_NODES && c.pods === 1000 ? undefined : `${c.nodes} nodes, ${c.pods} pods`
  return {
    idle_usd_per_month_100_nodes: one(
      'idle_usd_per_month_100_nodes',
      'USD',
      idle.usd,
      scaledNodes,
      {
        ...basis,
        line_items: lineItems(idle),
        dominant: idle.dominant,
        plan_base_usd: PLAN_BASE_USD_PER_MONTH,
        keepalive_messages: c.keepaliveMessages,
        busiest_objects: c.busiestIdle,
        prices: `${PRICE_SOURCES.join(', ')} (read ${PRICES_READ_ON})`,
        what: `the idle window extrapolated to 30 days for ${COST_NODES} nodes, priced beyond the Workers Paid plan's included amounts (its $${PLAN_BASE_USD_PER_MONTH} minimum not added)`,
      },
    ),
    usd_per_1000_pod_starts: one('usd_per_1000_pod_starts', 'USD', starts.usd, replicas, {
      ...basis,
      line_items: lineItems(starts),
      dominant: starts.dominant,
      stored_bytes_per_pod: c.rollout.storedBytes / c.pods,
      what: 'a Deployment rolled out until every replica is Running, less the idle rate over as long, per 1,000 pods at the list rates with nothing included',
    }),
    rows_written_per_lease_renewal: one(
      'rows_written_per_lease_renewal',
      'rows',
      c.leaseRowsWritten / c.leaseRenewals,
      scaledNodes && `${c.nodes} nodes`,
      {
        ...basis,
        renewals: c.leaseRenewals,
        at_write: c.leaseRowsAtWrite / c.leaseRenewals,
        what: "rows the leases store wrote in the idle window per renewal (a message on the node's heartbeat stream, or a merge patch): the renewal's own rows, its alarms and the compaction of its log rows",
      },
    ),
    rows_written_per_pod_create_to_running: one(
      'rows_written_per_pod_create_to_running',
      'rows',
      c.rollout.rowsWritten / c.pods,
      replicas,
      {
        ...basis,
        pods_store_rows_per_pod: c.podsStoreRowsWritten / c.pods,
        what: "rows every store and controller host wrote for the rollout (less the idle rate), per replica; their logs' compaction and setAlarm included",
      },
    ),
    idle_alarms_per_min: one(
      'idle_alarms_per_min',
      'alarms/min',
      ((c.idleAlarms.kindStores + c.idleAlarms.controllerHosts) * 60) / c.windowSeconds,
      idleAt,
      {
        ...basis,
        kind_store_alarms: c.idleAlarms.kindStores,
        controller_host_alarms: c.idleAlarms.controllerHosts,
        alarms_by_object: c.idleAlarms.byObject,
        what: 'alarms every store and every controller host ran in the idle window, per minute: each one wakes a Durable Object and is billed as a request',
      },
    ),
  }
}

function lineItems(b: Bill): Record<string, Record<string, number | string>> {
  return Object.fromEntries(
    b.items.map((i) => [
      i.item,
      { usage: i.usage, unit: i.unit, included: i.included, billable: i.billable, usd: i.usd },
    ]),
  )
}
