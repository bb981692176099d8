import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:test'
import { schedulerController } from '../../src/controllers/scheduler'
import { ControllerRunner, defaultRunnerOptions } from '../../src/controllers/runtime/runner'
import { resourceDefOf, pods } from '../../src/controllers/resources'
import { api } from './helpers'
import { countingEnv } from './counting-env'
import { podManifest } from '../helpers'

const ns = 'batch-bind'
const total = 120

const node = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status: {
    allocatable: { cpu: '64', memory: '256Gi', pods: '500' },
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        lastHeartbeatTime: new Date().toISOString().replace(/\.\d+Z/, 'Z'),
      },
    ],
  },
})

beforeAll(async () => {
  expect(
    (
      await api('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns },
      })
    ).status,
  ).toBe(201)
  expect((await api('POST', '/api/v1/nodes', node('batch-node'))).status).toBe(201)
  for (let i = 0; i < total; i += 20) {
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, j) =>
        api('POST', `/api/v1/namespaces/${ns}/pods`, podManifest(`p-${i + j}`)),
      ),
    )
    expect(created.every((r) => r.status === 201)).toBe(true)
  }
})

describe('batched bindings', () => {
  it('binds a pass’s pods many per store call, each with its Scheduled event', async () => {
    const { env: counted, calls } = countingEnv()
    const runner = new ControllerRunner(counted, schedulerController(), defaultRunnerOptions)
    const report = await runner.pass()
    const listed = (await api('GET', `/api/v1/namespaces/${ns}/pods`)).json.items as any[]
    expect(listed.filter((p) => p.spec.nodeName === 'batch-node').length).toBe(total)
    expect(
      listed.every((p) =>
        p.status.conditions.some((c: any) => c.type === 'PodScheduled' && c.status === 'True'),
      ),
    ).toBe(true)
    const events = (
      await api('GET', `/api/v1/namespaces/${ns}/events?fieldSelector=reason%3DScheduled`)
    ).json.items as any[]
    expect(events.length).toBe(total)
    const subrequests = Object.values(calls).reduce((a, b) => a + b, 0)
    expect(calls.bind ?? 0).toBe(0)
    expect(calls.create ?? 0).toBe(0)
    expect(calls.bindMany).toBe(Math.ceil(total / 50))
    expect(calls.createMany).toBe(Math.ceil(total / 50))
    // One relist per watched kind, then one call per 50 bindings and one per 50 events: none per pod.
    expect(subrequests).toBe((calls.list ?? 0) + 2 * Math.ceil(total / 50))
    expect(calls.list).toBe(schedulerController().watches.kinds.length)
    // The pass counted the same calls against its budget.
    expect(report.calls).toBe(subrequests)
  })

  it('answers each write of a batch on its own: a refused one leaves the others written', async () => {
    expect((await api('POST', `/api/v1/namespaces/${ns}/pods`, podManifest('free'))).status).toBe(
      201,
    )
    expect(
      (
        await api(
          'POST',
          `/api/v1/namespaces/${ns}/pods`,
          podManifest('taken', { nodeName: 'elsewhere' }),
        )
      ).status,
    ).toBe(201)
    const def = resourceDefOf(pods)
    const store = env.KIND_STORE.get(env.KIND_STORE.idFromName('core/pods')) as unknown as {
      bindMany(
        d: unknown,
        b: unknown[],
      ): Promise<{ object?: string; status?: { code: number; message: string } }[]>
    }
    const results = await store.bindMany(def, [
      { namespace: ns, name: 'taken', nodeName: 'batch-node' },
      { namespace: ns, name: 'missing', nodeName: 'batch-node' },
      { namespace: ns, name: 'free', nodeName: 'batch-node' },
    ])
    expect(results.map((r) => r.status?.code ?? 201)).toEqual([409, 404, 201])
    expect(results[0]!.status!.message).toContain(
      'pod taken is already assigned to node "elsewhere"',
    )
    expect((await api('GET', `/api/v1/namespaces/${ns}/pods/free`)).json.spec.nodeName).toBe(
      'batch-node',
    )
    expect((await api('GET', `/api/v1/namespaces/${ns}/pods/taken`)).json.spec.nodeName).toBe(
      'elsewhere',
    )

    const events = env.KIND_STORE.get(env.KIND_STORE.idFromName('core/events')) as unknown as {
      createMany(
        d: unknown,
        o: unknown[],
      ): Promise<{ object?: string; status?: { code: number } }[]>
    }
    const event = (name: string) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: ns },
      involvedObject: { kind: 'Pod', name: 'free', namespace: ns },
      reason: 'Test',
      message: name,
      type: 'Normal',
      count: 1,
    })
    const created = await events.createMany(
      resourceDefOf({ group: '', version: 'v1', plural: 'events' }),
      [event('e-1'), event('e-1'), event('e-2')],
    )
    expect(created.map((r) => r.status?.code ?? 201)).toEqual([201, 409, 201])
  })
})
