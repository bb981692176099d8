import { describe, expect, it } from 'vitest'
import { env, runDurableObjectAlarm, runInDurableObject, SELF } from 'cloudflare:test'
import { joinNode, token, hostOf } from './helpers'
import { waitFor } from '../helpers'

const host = hostOf

async function metrics(
  bearer = token,
): Promise<{ status: number; type: string | null; text: string }> {
  const res = await SELF.fetch('https://edgeplane.test/metrics', {
    headers: bearer ? { Authorization: `Bearer ${bearer}` } : {},
  })
  return { status: res.status, type: res.headers.get('Content-Type'), text: await res.text() }
}

/** The value of one series, e.g. `edgeplane_controller_alarms_total{controller="replicaset"}`. */
function sample(text: string, metric: string, controller: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${metric}{controller="${controller}"} `))
  if (!line) throw new Error(`no ${metric} for ${controller} in:\n${text}`)
  return Number(line.slice(line.lastIndexOf(' ') + 1))
}

describe('GET /metrics', () => {
  it('serves every controller host counter as Prometheus text, to the admin only', async () => {
    const res = await metrics()
    expect(res.status).toBe(200)
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(res.text).toContain('# TYPE edgeplane_controller_alarms_total counter')
    expect(res.text).toMatch(/^edgeplane_controller_alarms_total\{controller="replicaset"\} \d+$/m)
    expect(res.text).toMatch(
      /^edgeplane_controller_reconcile_passes_total\{controller="scheduler"\} \d+$/m,
    )

    expect((await metrics('')).status).toBe(401)
    const asNode = await metrics(await joinNode('metrics-n1'))
    expect(asNode.status).toBe(403)
    expect(asNode.text).toContain('cannot get path \\"/metrics\\"')
  })

  it('counts an alarm and a pass of a controller', async () => {
    const before = (await metrics()).text
    const alarms = sample(before, 'edgeplane_controller_alarms_total', 'replicaset')
    const passes = sample(before, 'edgeplane_controller_reconcile_passes_total', 'replicaset')
    const notifications = sample(before, 'edgeplane_controller_notifications_total', 'replicaset')

    await host('replicaset').poke('replicaset')
    // Its host runs one controller's pass per alarm, the one due earliest, and the alarm may also fire
    // by itself: run alarms until the host rests (its next alarm is a resync, not another pass).
    const next = await waitFor(
      async () => {
        await runDurableObjectAlarm(host('replicaset'))
        const at = await runInDurableObject(host('replicaset'), (_instance, state) =>
          state.storage.getAlarm(),
        )
        return at !== null && at > Date.now() + 5_000 && at
      },
      { what: 'the replicaset host to rest', timeoutMs: 20_000 },
    )
    const after = (await metrics()).text
    expect(sample(after, 'edgeplane_controller_alarms_total', 'replicaset')).toBe(alarms + 1)
    expect(sample(after, 'edgeplane_controller_reconcile_passes_total', 'replicaset')).toBe(
      passes + 1,
    )
    expect(sample(after, 'edgeplane_controller_notifications_total', 'replicaset')).toBe(
      notifications + 1,
    )

    // Kept in storage: a new instance of the object (after eviction) reads the same counts.
    const stored = await runInDurableObject(host('replicaset'), (_instance, state) =>
      state.storage.get<{ alarms: number }>('counters/replicaset'),
    )
    expect(stored?.alarms).toBe(alarms + 1)
    // The pass re-armed the periodic resync, not another immediate pass.
    expect(next).toBeGreaterThan(Date.now() + 5_000)
  })
})
