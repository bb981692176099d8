import { describe, expect, it } from 'vitest'
import { env, evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { controllerDefinition } from '../../src/controllers/registry'
import { ControllerRunner, defaultRunnerOptions } from '../../src/controllers/runtime/runner'
import {
  memoryPrefix,
  refusalsPrefix,
  restoreRunnerState,
} from '../../durable-objects/controller-host/memory'
import { api, hostOf } from './helpers'
import { runner } from './controller-runner'
import { namespaceWithQuota } from './quota-namespace'
import { podManifest } from '../helpers'

const host = hostOf

/** One pass of the named controller's host, as its alarm runs it. */
async function alarmPass(name: string): Promise<void> {
  await host(name).passNow(name)
}

/** What the controller has saved in its host's storage, by key. */
const savedMemory = (name: string) =>
  runInDurableObject(host(name), async (_i, state) => {
    const prefix = memoryPrefix(name)
    return Object.fromEntries(
      [...(await state.storage.list({ prefix }))].map(([k, v]) => [k.slice(prefix.length), v]),
    )
  })

describe('what a controller remembers survives its host being evicted', () => {
  it('pod GC keeps the quarantine clock of a deleted node across an eviction, and then collects its pods', async () => {
    await api('POST', '/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'gone' },
    })
    const pod = podManifest('orphan', { nodeName: 'gone' })
    expect((await api('POST', '/api/v1/namespaces/default/pods', pod)).status).toBe(201)
    expect((await api('DELETE', '/api/v1/nodes/gone')).status).toBe(200)

    await alarmPass('pod-gc')
    const started = (await savedMemory('pod-gc'))['gone']
    expect(typeof started).toBe('number')

    // A new instance restores the clock rather than starting it again.
    await evictDurableObject(host('pod-gc'))
    await alarmPass('pod-gc')
    expect((await savedMemory('pod-gc'))['gone']).toBe(started)
    expect((await api('GET', '/api/v1/namespaces/default/pods/orphan')).status).toBe(200)

    // Once the quarantine has run out, counted from the first sight, the next instance collects the pod.
    await evictDurableObject(host('pod-gc'))
    await runInDurableObject(host('pod-gc'), async (_i, state) => {
      const runner = new ControllerRunner(
        env,
        controllerDefinition('pod-gc', env),
        defaultRunnerOptions,
      )
      await restoreRunnerState(state.storage, 'pod-gc', runner)
      await runner.pass(() => (started as number) + 40_001)
    })
    expect((await api('GET', '/api/v1/namespaces/default/pods/orphan')).status).toBe(404)
  })

  it('the ReplicaSet controller announces the pods it created even when its host was evicted in between', async () => {
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    }
    expect((await api('POST', '/apis/apps/v1/namespaces/default/replicasets', rs)).status).toBe(201)
    await alarmPass('replicaset')
    const pods = (
      await api('GET', '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb')
    ).json.items
      .map((p: any) => p.metadata.name)
      .sort()
    expect(pods).toHaveLength(2)
    expect(Object.keys(await savedMemory('replicaset'))).toEqual(['default/web'])

    await evictDurableObject(host('replicaset'))
    await alarmPass('replicaset')
    const events = (
      await api('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dweb')
    ).json.items
    const created = events
      .filter((e: any) => e.reason === 'SuccessfulCreate')
      .map((e: any) => e.message)
      .sort()
    expect(created).toEqual(pods.map((p: string) => `Created pod: ${p}`))
    expect(await savedMemory('replicaset')).toEqual({})
  })

  it('the Job controller announces each pod it created once, even when its host was evicted in between', async () => {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'batch' },
      spec: {
        parallelism: 2,
        completions: 2,
        template: {
          spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    }
    expect((await api('POST', '/apis/batch/v1/namespaces/default/jobs', job)).status).toBe(201)
    const announced = async () =>
      (
        await api(
          'GET',
          '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dbatch',
        )
      ).json.items.filter((e: any) => e.reason === 'SuccessfulCreate').length
    await alarmPass('job') // creates the pods
    await alarmPass('job') // sees them, and announces them
    expect(await announced()).toBe(2)

    await evictDurableObject(host('job'))
    await alarmPass('job')
    expect(await announced()).toBe(2)
  })

  it("the write the API refused survives an eviction: the key's next reconcile reports it", async () => {
    await namespaceWithQuota('refused-evict', { pods: '0' }, runner('resourcequota'))
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'busybox' }] },
        },
      },
    }
    expect(
      (await api('POST', '/apis/apps/v1/namespaces/refused-evict/replicasets', rs)).status,
    ).toBe(201)
    const failedCreates = async () =>
      (
        await api(
          'GET',
          '/api/v1/namespaces/refused-evict/events?fieldSelector=involvedObject.name%3Dweb',
        )
      ).json.items.filter((e: any) => e.reason === 'FailedCreate')

    // The pod create is refused by the quota: the refusal is kept for the key, not yet reported.
    await alarmPass('replicaset')
    const saved = await runInDurableObject(host('replicaset'), (_i, state) =>
      state.storage.get<any>(`${refusalsPrefix('replicaset')}refused-evict/web`),
    )
    expect(saved.action).toMatchObject({ type: 'create', object: { kind: 'Pod' } })
    expect(saved.status).toMatchObject({ code: 403, reason: 'Forbidden' })
    expect(await failedCreates()).toEqual([])

    // A new instance hands it to the key's first reconcile, which reports it as upstream does.
    await evictDurableObject(host('replicaset'))
    await alarmPass('replicaset')
    const [reported] = await failedCreates()
    expect(reported.message).toBe(`Error creating: ${saved.status.message}`)
    const stored = (await api('GET', '/apis/apps/v1/namespaces/refused-evict/replicasets/web')).json
    expect(stored.status.conditions).toEqual([
      expect.objectContaining({
        type: 'ReplicaFailure',
        reason: 'FailedCreate',
        message: saved.status.message,
      }),
    ])
  })
})
