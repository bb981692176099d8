import { describe, expect, it } from 'vitest'
import {
  createScheduledController,
  env,
  runDurableObjectAlarm,
  runInDurableObject,
} from 'cloudflare:test'
import { controllerNames } from '../../src/controllers/registry'
import worker from '../../src/index'
import { ControllerRunner, defaultRunnerOptions } from '../../src/controllers/runtime/runner'
import type { ControllerDefinition } from '../../src/controllers/runtime/types'
import { api, hostOf } from './helpers'
import { podManifest, waitFor } from '../helpers'

const host = hostOf

/**
 * Waits (bounded) until every controller the cron trigger woke has finished its pass and re-armed
 * for its next resync, so no pass is still running when the test file ends.
 */
async function controllersAtRest(timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (const name of controllerNames()) {
    await waitFor(
      async () => {
        const at = await runInDurableObject(host(name), (_instance, state) =>
          state.storage.getAlarm(),
        )
        return at !== null && at > Date.now() + 5_000
      },
      {
        what: `controller ${name} to finish its pass`,
        timeoutMs: Math.max(deadline - Date.now(), 1),
      },
    )
  }
}

const readyNode = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: {
    capacity: { cpu: '4', memory: '8Gi', pods: '110' },
    allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
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

describe('controller passes without notifications', () => {
  it('heals a lost notification on the next periodic pass re-armed by cron', async () => {
    await api('POST', '/api/v1/nodes', readyNode('n1'))
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'n1' },
      spec: {
        holderIdentity: 'n1',
        leaseDurationSeconds: 40,
        renewTime: new Date().toISOString().replace('Z', '000Z'),
      },
    }
    await api('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', lease)
    const created = await api('POST', '/api/v1/namespaces/default/pods', podManifest('pending'))
    expect(created.status).toBe(201)
    // Notifications are off in this project: nothing has told the scheduler about the pod.
    expect(await runDurableObjectAlarm(host('scheduler'))).toBe(false)
    expect(
      (await api('GET', '/api/v1/namespaces/default/pods/pending')).json.spec.nodeName,
    ).toBeUndefined()

    await worker.scheduled!(createScheduledController({ cron: '* * * * *' }), env)
    await runDurableObjectAlarm(host('scheduler'))
    const pod = await waitFor(
      async () => {
        const p = (await api('GET', '/api/v1/namespaces/default/pods/pending')).json
        return p.spec.nodeName ? p : undefined
      },
      { what: 'pod pending bound to a node' },
    )
    expect(pod.spec.nodeName).toBe('n1')
    expect(pod.status.conditions.find((c: any) => c.type === 'PodScheduled').status).toBe('True')
    const events = (
      await api(
        'GET',
        '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dpending',
      )
    ).json.items
    expect(events.map((e: any) => e.reason)).toContain('Scheduled')
    await controllersAtRest()
  })

  it('backs a failing key off instead of hot-looping, and an idle controller sleeps until its resync', async () => {
    let calls = 0
    const failing: ControllerDefinition = {
      name: 'always-fails',
      watches: {
        kinds: [{ group: '', version: 'v1', plural: 'configmaps' }],
        // Only the one key of allKeys: the ConfigMaps the cluster starts with are none of its business.
        keysFor: () => [],
        allKeys: () => ['default/broken'],
      },
      reconcile: () => {
        calls++
        throw new Error('cannot converge')
      },
    }
    let now = 1_000_000
    const runner = new ControllerRunner(env, failing, { ...defaultRunnerOptions, resyncMs: 30_000 })
    const waits: number[] = []
    for (let i = 0; i < 6; i++) {
      const report = await runner.pass(() => now)
      waits.push(report.nextAt! - now)
      now = report.nextAt!
    }
    expect(calls).toBe(6)
    for (let i = 1; i < 5; i++) expect(waits[i]).toBeGreaterThan(waits[i - 1]!)

    const idle: ControllerDefinition = {
      ...failing,
      name: 'idle',
      watches: { ...failing.watches, allKeys: () => [] },
      reconcile: () => ({ actions: [] }),
    }
    const idleRunner = new ControllerRunner(env, idle, {
      ...defaultRunnerOptions,
      resyncMs: 30_000,
    })
    const report = await idleRunner.pass(() => now)
    expect(report.nextAt! - now).toBe(30_000)
  })

  it('ends a pass after a bounded number of actions and takes the rest in the next pass at once', async () => {
    const keys = Array.from({ length: 7 }, (_, i) => `k${i}`)
    const involved = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'bounded', namespace: 'default', uid: 'u-bounded' },
    }
    const done: string[] = []
    const bounded: ControllerDefinition = {
      name: 'bounded',
      watches: {
        kinds: [{ group: '', version: 'v1', plural: 'configmaps' }],
        keysFor: () => [],
        allKeys: () => keys,
      },
      reconcile: (key) => {
        done.push(key)
        return {
          actions: [
            { type: 'event', involved, eventType: 'Normal', reason: 'Counted', message: key },
          ],
        }
      },
    }
    const now = 2_000_000
    const runner = new ControllerRunner(env, bounded, {
      ...defaultRunnerOptions,
      maxActionsPerPass: 3,
    })
    const first = await runner.pass(() => now)
    expect(first.actions).toBe(3)
    expect(first.nextAt).toBe(now)
    const second = await runner.pass(() => now)
    expect(second.actions).toBe(3)
    const third = await runner.pass(() => now)
    expect(third.actions).toBe(1)
    expect(third.nextAt).toBeGreaterThan(now)
    expect(done.sort()).toEqual([...keys].sort())
  })

  it('bumps the count of an event it repeats instead of writing another', async () => {
    const involved = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'repeated', namespace: 'default', uid: 'u-repeated' },
    }
    let message = 'the same thing again'
    const repeating: ControllerDefinition = {
      name: 'repeating',
      watches: {
        kinds: [{ group: '', version: 'v1', plural: 'configmaps' }],
        keysFor: () => [],
        allKeys: () => ['default/repeated'],
      },
      reconcile: () => ({
        actions: [{ type: 'event', involved, eventType: 'Warning', reason: 'Repeated', message }],
      }),
    }
    let now = 3_000_000
    const runner = new ControllerRunner(env, repeating, { ...defaultRunnerOptions, resyncMs: 1000 })
    for (let i = 0; i < 3; i++) {
      await runner.pass(() => now)
      now += 1000
    }
    const about = async () =>
      (
        await api(
          'GET',
          '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Drepeated',
        )
      ).json.items
    const once = await about()
    expect(once).toHaveLength(1)
    expect(once[0].count).toBe(3)
    expect(once[0].lastTimestamp).toBe(new Date(now - 1000).toISOString().replace(/\.\d+Z$/, 'Z'))
    expect(once[0].firstTimestamp).toBe(new Date(3_000_000).toISOString().replace(/\.\d+Z$/, 'Z'))

    message = 'something else'
    await runner.pass(() => now)
    expect((await about()).map((e: any) => [e.message, e.count]).sort()).toEqual([
      ['something else', 1],
      ['the same thing again', 3],
    ])
  })
})
