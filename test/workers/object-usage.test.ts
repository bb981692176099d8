import { describe, expect, it } from 'vitest'
import { env, runInDurableObject, SELF } from 'cloudflare:test'
import { storeFor } from '../../src/store-client/stores'
import { resourceDefOf } from '../../src/controllers/resources'
import { storeName } from '../../src/apis/registry'
import type { EntryUsage, ObjectUsage } from '../../src/limits/object-usage'
import { api, configMap, hostOf, token } from './helpers'

const configMaps = resourceDefOf({ group: '', version: 'v1', plural: 'configmaps' })

async function metricsText(): Promise<string> {
  const res = await SELF.fetch('https://edgeplane.test/metrics', {
    headers: { Authorization: `Bearer ${token}` },
  })
  return res.text()
}

/** The value of the series that starts with `prefix` (its labels included), 0 when there is none. */
function sample(text: string, prefix: string): number {
  const line = text.split('\n').find((l) => l.startsWith(prefix))
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0
}

function total(u: ObjectUsage, field: keyof EntryUsage): number {
  return Object.values(u.entries).reduce((n, e) => n + e[field], 0)
}

describe('what each Durable Object is billed for (strict-limits mode)', () => {
  it("counts a store's requests and the rows its writes wrote, from the runtime's cursor counts", async () => {
    const store = storeFor(env, configMaps)
    expect(
      (await api('POST', '/api/v1/namespaces/default/configmaps', configMap('usage-1'))).status,
    ).toBe(201)
    const before = (await store.readUsage())!
    expect(before.entries['rpc:create']?.calls).toBeGreaterThanOrEqual(1)

    expect(
      (await api('POST', '/api/v1/namespaces/default/configmaps', configMap('usage-2'))).status,
    ).toBe(201)
    const after = (await store.readUsage())!
    const created = after.entries['rpc:create']!
    expect(created.calls).toBe(before.entries['rpc:create']!.calls + 1)
    // The log row and the current object (docs/kind-store.md).
    expect(created.rowsWritten - before.entries['rpc:create']!.rowsWritten).toBe(2)
    expect(after.log?.changes).toBe(before.log!.changes + 1)
    expect(after.databaseBytes).toBeGreaterThan(0)
    // Reading the counts counts nothing.
    expect(await store.readUsage()).toMatchObject({ entries: after.entries, since: after.since })
  })

  it('keeps the counts in storage, so a new instance after eviction goes on from them', async () => {
    const store = storeFor(env, configMaps)
    expect(
      (await api('POST', '/api/v1/namespaces/default/configmaps', configMap('usage-3'))).status,
    ).toBe(201)
    const counted = (await store.readUsage())!
    const object = env.KIND_STORE.get(env.KIND_STORE.idFromName(storeName(configMaps)))
    const kept = await runInDurableObject(
      object,
      (_instance, state) =>
        state.storage.sql.exec<{ value: string }>('SELECT value FROM edgeplane_usage').one().value,
    )
    expect((JSON.parse(kept) as ObjectUsage).entries['rpc:create']).toEqual(
      counted.entries['rpc:create'],
    )
  })

  it("counts a controller host's KV writes and alarm writes in the pass that made them", async () => {
    const host = hostOf('replicaset')
    const before = await host.readUsage()
    await host.passNow('replicaset')
    const after = (await host.readUsage())!
    const pass = after.entries['rpc:passNow']!
    expect(pass.calls).toBe((before?.entries['rpc:passNow']?.calls ?? 0) + 1)
    // Its counters, saved after the pass, and the alarm set for the next one.
    expect(pass.kvRowsWritten).toBeGreaterThan(before?.entries['rpc:passNow']?.kvRowsWritten ?? 0)
    expect(pass.alarmWrites).toBeGreaterThan(before?.entries['rpc:passNow']?.alarmWrites ?? 0)
    expect(total(after, 'calls')).toBeGreaterThan(0)
  })

  it("serves each object's counts and the Worker's requests on GET /metrics, which counts itself in neither", async () => {
    const workerBefore = sample(
      await metricsText(),
      'edgeplane_worker_requests_total{entry="fetch"}',
    )
    expect(
      (await api('POST', '/api/v1/namespaces/default/configmaps', configMap('usage-4'))).status,
    ).toBe(201)
    expect((await api('GET', '/api/v1/namespaces/default/configmaps/usage-4')).status).toBe(200)
    const text = await metricsText()
    expect(sample(text, 'edgeplane_worker_requests_total{entry="fetch"}')).toBe(workerBefore + 2)
    const labels = 'class="KindStore",object="core/configmaps"'
    expect(
      sample(text, `edgeplane_object_requests_total{${labels},entry="rpc:create"}`),
    ).toBeGreaterThanOrEqual(1)
    expect(
      sample(text, `edgeplane_object_sql_rows_written_total{${labels},entry="rpc:create"}`),
    ).toBeGreaterThan(0)
    expect(
      sample(text, `edgeplane_object_sql_rows_read_total{${labels},entry="rpc:get"}`),
    ).toBeGreaterThan(0)
    expect(sample(text, `edgeplane_object_log_changes_total{${labels}}`)).toBeGreaterThanOrEqual(1)
    expect(text).toMatch(
      /^edgeplane_object_kv_rows_written_total\{class="ControllerHost",object="[a-z-]+",entry="[a-z:A-Z]+"\} \d+$/m,
    )
    expect(text).toMatch(
      /^edgeplane_object_active_seconds_total\{class="KindStore",object="core\/configmaps"\} [\d.e-]+$/m,
    )
  })
})
