import { describe, expect, it } from 'vitest'
import {
  marginalBill,
  monthlyBill,
  perMonth,
  scaleUsage,
  usageOf,
  type Usage,
} from '../../src/bench/cost/bill'
import { PRICES, SECONDS_PER_MONTH } from '../../src/bench/cost/prices'
import {
  meteredOf,
  parseUsage,
  rowsPerCompactedEvent,
  usageBetween,
} from '../../src/bench/cost/usage'
import { costFigures } from '../../src/bench/report/cost-figures'
import { COST_KEYS } from '../../src/bench/report/keys'
import { parseOptions, type BenchOptions } from '../../src/bench/options'
import { summarize } from '../../src/bench/scenarios/cost'

const zero: Usage = {
  workerRequests: 0,
  doRequests: 0,
  doDuration: 0,
  rowsRead: 0,
  rowsWritten: 0,
  storage: 0,
}

describe('the bill at list prices', () => {
  it('prices each line beyond its included amount, and names the line that costs most', () => {
    const bill = monthlyBill({
      workerRequests: 25_000_000,
      doRequests: 31_000_000,
      doDuration: 500_000,
      rowsRead: 30e9,
      rowsWritten: 300_000_000,
      storage: 6,
    })
    const usd = Object.fromEntries(bill.items.map((i) => [i.item, i.usd]))
    expect(usd.workerRequests).toBeCloseTo(15 * 0.3) // 15 M past the 10 M included
    expect(usd.doRequests).toBeCloseTo(30 * 0.15) // 30 M past 1 M
    expect(usd.doDuration).toBeCloseTo(0.1 * 12.5) // 100,000 GB-s past 400,000
    expect(usd.rowsRead).toBeCloseTo(5_000 * 0.001) // 5 billion past 25 billion
    expect(usd.rowsWritten).toBeCloseTo(250 * 1) // 250 M past 50 M
    expect(usd.storage).toBeCloseTo(0.2) // 1 GB-month past 5
    expect(bill.usd).toBeCloseTo(4.5 + 4.5 + 1.25 + 5 + 250 + 0.2)
    expect(bill.dominant).toBe('rowsWritten')
    expect(bill.items.find((i) => i.item === 'rowsWritten')).toMatchObject({
      usage: 300_000_000,
      included: 50_000_000,
      billable: 250_000_000,
    })
  })

  it('is nothing within the included amounts, and names no line', () => {
    const within = Object.fromEntries(
      Object.entries(PRICES).map(([k, p]) => [k, p.included]),
    ) as Usage
    expect(monthlyBill(within)).toMatchObject({ usd: 0 })
    expect(monthlyBill(within).dominant).toBeUndefined()
    // With nothing included, the same usage is priced from its first unit.
    expect(marginalBill({ ...zero, rowsWritten: 2_000_000 }).usd).toBeCloseTo(2)
  })

  it('bills incoming WebSocket messages 20 to a request, and every active second at 128 MB', () => {
    const u = usageOf({
      workerRequests: 7,
      doRequests: 10,
      wsMessages: 40,
      activeSeconds: 8,
      rowsRead: 1,
      rowsWritten: 2,
      storedBytes: 3e9,
    })
    expect(u).toEqual({
      workerRequests: 7,
      doRequests: 12,
      doDuration: 1,
      rowsRead: 1,
      rowsWritten: 2,
      storage: 3,
    })
  })

  it('extrapolates a window to 30 days, storage (a level) as it is', () => {
    const month = perMonth({ ...zero, workerRequests: 600, storage: 0.5 }, 60)
    expect(month.workerRequests).toBe(600 * (SECONDS_PER_MONTH / 60))
    expect(month.storage).toBe(0.5)
    expect(scaleUsage({ ...zero, rowsRead: 3 }, 2).rowsRead).toBe(6)
    expect(() => perMonth(zero, 0)).toThrow(/cannot be extrapolated/)
  })
})

/** GET /metrics of a strict-limits control plane, as the Worker renders it, reduced to what the meter reads. */
function metricsText(o: {
  at: number
  worker: number
  leases: [patches: number, rows: number, alarmRows: number, changes: number, events: number]
  pods: [creates: number, rows: number, changes: number, events: number]
  hostKv: number
  active: number
  since?: number
  /** alarms the leases store and the pods host ran so far */
  alarms?: [store: number, host: number]
  /** event rows each store's compaction removed (unset: every change no longer held) */
  compacted?: [leases: number, pods: number]
}): string {
  const l = 'class="KindStore",object="coordination.k8s.io/leases"'
  const p = 'class="KindStore",object="core/pods"'
  const h = 'class="ControllerHost",object="pods"'
  return [
    '# HELP edgeplane_object_requests_total x',
    `edgeplane_object_requests_total{${l},entry="rpc:patch"} ${o.leases[0]}`,
    `edgeplane_object_sql_rows_written_total{${l},entry="rpc:patch"} ${o.leases[1]}`,
    `edgeplane_object_requests_total{${l},entry="alarm"} ${o.alarms?.[0] ?? 2}`,
    `edgeplane_object_requests_total{${h},entry="alarm"} ${o.alarms?.[1] ?? 0}`,
    `edgeplane_object_sql_rows_written_total{${l},entry="alarm"} ${o.leases[2]}`,
    `edgeplane_object_alarm_writes_total{${l},entry="rpc:patch"} 1`,
    `edgeplane_object_log_changes_total{${l}} ${o.leases[3]}`,
    `edgeplane_object_log_events{${l}} ${o.leases[4]}`,
    `edgeplane_object_log_compacted_total{${l}} ${o.compacted?.[0] ?? o.leases[3] - o.leases[4]}`,
    `edgeplane_object_counting_since_seconds{${l}} ${o.since ?? 1}`,
    `edgeplane_object_database_bytes{${l}} 1000`,
    `edgeplane_object_requests_total{${p},entry="rpc:create"} ${o.pods[0]}`,
    `edgeplane_object_sql_rows_written_total{${p},entry="rpc:create"} ${o.pods[1]}`,
    `edgeplane_object_sql_rows_read_total{${p},entry="rpc:list"} 50`,
    `edgeplane_object_requests_total{${p},entry="ws:message"} 40`,
    `edgeplane_object_log_changes_total{${p}} ${o.pods[2]}`,
    `edgeplane_object_log_events{${p}} ${o.pods[3]}`,
    `edgeplane_object_log_compacted_total{${p}} ${o.compacted?.[1] ?? o.pods[2] - o.pods[3]}`,
    `edgeplane_object_counting_since_seconds{${p}} 1`,
    `edgeplane_object_active_seconds_total{${p}} ${o.active}`,
    `edgeplane_object_kv_rows_written_total{${h},entry="alarm"} ${o.hostKv}`,
    `edgeplane_object_counting_since_seconds{${h}} 1`,
    `edgeplane_worker_requests_total{entry="fetch"} ${o.worker}`,
    `edgeplane_worker_requests_total{entry="scheduled"} 1`,
    'edgeplane_strict_max_rpc_bytes{scope="worker"} 5',
  ].join('\n')
}

describe('the usage GET /metrics reports', () => {
  const start = parseUsage(
    metricsText({
      at: 0,
      worker: 100,
      leases: [0, 0, 0, 0, 0],
      pods: [0, 0, 0, 0],
      hostKv: 0,
      active: 0,
    }),
    0,
  )
  const converged = parseUsage(
    metricsText({
      at: 0,
      worker: 130,
      leases: [10, 60, 0, 10, 10],
      pods: [20, 400, 60, 60],
      hostKv: 20,
      active: 2,
    }),
    10_000,
  )
  const atEnd: Parameters<typeof metricsText>[0] = {
    at: 0,
    worker: 190,
    leases: [70, 420, 90, 70, 40],
    pods: [20, 400, 60, 30],
    hostKv: 30,
    active: 2.5,
  }
  const end = parseUsage(metricsText(atEnd), 70_000)

  it('reads each object and entry point, and the differences between reads', () => {
    expect(start.objects.size).toBe(3)
    const idle = usageBetween(converged, end)
    expect(idle.seconds).toBe(60)
    expect(idle.workerRequests).toBe(60)
    const leases = idle.objects.get('KindStore coordination.k8s.io/leases')!
    expect(leases.entries['rpc:patch']).toMatchObject({ calls: 60, rowsWritten: 360 })
    expect(leases).toMatchObject({ changes: 60, events: 30 })
    // A count that began again (its storage was wiped) is taken from zero.
    const wiped = parseUsage(metricsText({ ...atEnd, leases: [5, 30, 0, 5, 5], since: 99 }), 80_000)
    expect(
      usageBetween(end, wiped).objects.get('KindStore coordination.k8s.io/leases')!.entries[
        'rpc:patch'
      ],
    ).toMatchObject({ calls: 5, rowsWritten: 30 })
  })

  it("charges each row a log grew by the rows its compaction writes, measured over the stores' lives", () => {
    // leases: 90 alarm rows for 70 - 40 = 30 events deleted; pods: no alarm rows for 30 deleted.
    expect(rowsPerCompactedEvent(end)).toBe(90 / 60)
    expect(rowsPerCompactedEvent(start)).toBeNull()
    // Changes a store no longer holds that its compaction did not remove (a Lease's renewals,
    // rewriting one row) are no deletions: 90 alarm rows for the 10 + 30 rows compaction removed.
    expect(
      rowsPerCompactedEvent(parseUsage(metricsText({ ...atEnd, compacted: [10, 30] }), 0)),
    ).toBe(90 / 40)
    const idle = meteredOf(usageBetween(converged, end), 1.5)
    // 360 + 90 + 0 (leases) + 10 (host) written; the logs grew by 30 and shrank by 30.
    expect(idle.rowsWritten).toBe(360 + 90 + 10 + 30 * 1.5 - 30 * 1.5)
    expect(idle).toMatchObject({
      workerRequests: 60,
      doRequests: 60,
      wsMessages: 0,
      activeSeconds: 0.5,
    })
  })

  it('gives the four cost figures, judged by their goals', () => {
    const c = summarize(
      { nodes: 100, pods: 20, windowMs: 60_000, waitMs: 1 },
      start,
      converged,
      end,
    )
    expect(c.leaseRenewals).toBe(60)
    expect(c.keepaliveMessages).toBe(300)
    // The rollout less the idle rate over its 10 s: 30 - 10 Worker requests.
    expect(c.rollout.workerRequests).toBe(20)
    const f = costFigures(c)
    expect(Object.keys(f).sort()).toEqual([...COST_KEYS].sort())
    // The renewals' 360 rows, the alarms' 90, and 1.5 for each of the 30 rows the log grew by.
    expect(f.rows_written_per_lease_renewal).toMatchObject({
      value: (360 + 90 + 30 * 1.5) / 60,
      goal: '<= 2',
      verdict: 'misses',
    })
    expect(f.rows_written_per_lease_renewal.details).toMatchObject({ renewals: 60, at_write: 6 })
    expect(f.idle_usd_per_month_100_nodes.goal).toBe('<= 5')
    expect(f.idle_usd_per_month_100_nodes.value).toBeGreaterThan(0)
    expect(f.usd_per_1000_pod_starts.value).toBeGreaterThan(0)
    expect(f.rows_written_per_pod_create_to_running.at).toBe('20 replicas')
    expect(
      costFigures({ error: 'the control plane did not start' }).idle_usd_per_month_100_nodes,
    ).toMatchObject({
      value: null,
      verdict: 'not measured',
      skipped: 'the control plane did not start',
    })
  })

  it("counts every store's and every controller host's alarms in the idle window, per minute", () => {
    const quiet = summarize(
      { nodes: 100, pods: 1000, windowMs: 60_000, waitMs: 1 },
      start,
      converged,
      end,
    )
    expect(quiet.idleAlarms).toEqual({ kindStores: 0, controllerHosts: 0, byObject: {} })
    expect(costFigures(quiet).idle_alarms_per_min).toMatchObject({
      value: 0,
      goal: '<= 1',
      verdict: 'meets',
    })
    const woken = parseUsage(metricsText({ ...atEnd, alarms: [5, 3] }), 70_000)
    const c = summarize(
      { nodes: 3, pods: 10, windowMs: 60_000, waitMs: 1 },
      start,
      converged,
      woken,
    )
    expect(c.idleAlarms).toEqual({
      kindStores: 3,
      controllerHosts: 3,
      byObject: { 'KindStore coordination.k8s.io/leases': 3, 'ControllerHost pods': 3 },
    })
    const f = costFigures(c).idle_alarms_per_min
    // 6 alarms in the 60 s window; the nodes are not scaled, only named.
    expect(f).toMatchObject({
      value: 6,
      unit: 'alarms/min',
      verdict: 'misses',
      at: '3 nodes, 10 pods',
    })
    expect(f.details).toMatchObject({ kind_store_alarms: 3, controller_host_alarms: 3 })
    // Each alarm is a Durable Object request on the bill.
    expect(c.idle.doRequests).toBe(60 + 6)
  })

  it('runs alone with --cost', () => {
    expect(parseOptions(['--cost', '--quick'])).toMatchObject({
      cost: true,
      mode: 'quick',
    } satisfies Partial<BenchOptions>)
    expect((parseOptions([]) as BenchOptions).cost).toBeUndefined()
  })
})
