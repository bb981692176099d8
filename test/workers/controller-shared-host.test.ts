import { describe, expect, it } from 'vitest'
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { runnersSharingCaches } from '../../src/controllers/runtime/shared-caches'
import type { ControllerDefinition } from '../../src/controllers/runtime/types'
import { hostOfController, sharedPodsHost } from '../../src/controllers/hosts'
import { memoryPrefix } from '../../durable-objects/controller-host/memory'
import { api, configMap, hostOf } from './helpers'

const configMaps = { group: '', version: 'v1', plural: 'configmaps' }

/** A controller that reconciles the ConfigMaps labelled `shared` and remembers which it saw. */
function recorder(name: string, seen: string[]): ControllerDefinition {
  return {
    name,
    watches: {
      kinds: [configMaps],
      keysFor: (_r, o) =>
        o.metadata.labels?.shared ? [`${o.metadata.namespace}/${o.metadata.name}`] : [],
      allKeys: () => [],
    },
    reconcile: (key) => {
      seen.push(key)
      return { actions: [] }
    },
  }
}

describe('controllers sharing one host', () => {
  it('a change one controller reads is queued for every controller of the host that watches its kind', async () => {
    const seenA: string[] = []
    const seenB: string[] = []
    const [a, b] = runnersSharingCaches(env, [recorder('a', seenA), recorder('b', seenB)])
    await a!.pass()
    await b!.pass()
    expect(
      (
        await api(
          'POST',
          '/api/v1/namespaces/default/configmaps',
          configMap('fresh', { k: 'v' }, { shared: 'yes' }),
        )
      ).status,
    ).toBe(201)

    // a's pass reads the change from the log and applies it to the caches both read.
    await a!.pass()
    expect(seenA).toEqual(['default/fresh'])
    // b's pass finds nothing new in the log, yet reconciles the key a's read queued for it.
    const report = await b!.pass()
    expect(seenB).toEqual(['default/fresh'])
    expect(report.reconciled).toBe(1)
    expect(b!.caches.get(configMaps, 'default', 'fresh')?.metadata.labels).toEqual({
      shared: 'yes',
    })
  })

  it('a host from before the shared one hands over what its controller remembered, and retires', async () => {
    expect(hostOfController('replicaset')).toBe(sharedPodsHost)
    const legacy = env.CONTROLLER_HOST.get(env.CONTROLLER_HOST.idFromName('controller/replicaset'))
    await runInDurableObject(legacy, async (_i, state) => {
      await state.storage.put({
        controller: 'replicaset',
        counters: { alarms: 3 },
        'memory/default/web': { creates: 2 },
      })
      await state.storage.setAlarm(Date.now() + 60_000)
    })
    expect(await runDurableObjectAlarm(legacy)).toBe(true)
    const left = await runInDurableObject(legacy, async (_i, state) => ({
      keys: [...(await state.storage.list()).keys()],
      alarm: await state.storage.getAlarm(),
    }))
    expect(left).toEqual({ keys: [], alarm: null })
    const adopted = await runInDurableObject(hostOf('replicaset'), (_i, state) =>
      state.storage.get(`${memoryPrefix('replicaset')}default/web`),
    )
    expect(adopted).toEqual({ creates: 2 })
  })

  it('a host of one controller from before keeps running it, its counters kept', async () => {
    expect(hostOfController('cronjob')).toBe('cronjob')
    const own = hostOf('cronjob')
    await runInDurableObject(own, async (_i, state) => {
      await state.storage.put({
        controller: 'cronjob',
        counters: {
          alarms: 7,
          notifications: 1,
          passes: 7,
          failedPasses: 0,
          reconciles: 0,
          since: 1,
        },
      })
      await state.storage.setAlarm(Date.now() + 60_000)
    })
    expect(await runDurableObjectAlarm(own)).toBe(true)
    const counters = await own.readCounters('cronjob')
    expect(counters.alarms).toBe(8)
    expect(counters.passes).toBe(8)
    expect(await runInDurableObject(own, (_i, state) => state.storage.getAlarm())).not.toBeNull()
  })
})
