import { describe, expect, it } from 'vitest'
import { env, runDurableObjectAlarm } from 'cloudflare:test'
import { runnersSharingCaches } from '../../src/controllers/runtime/shared-caches'
import type { ControllerDefinition, WakesOn } from '../../src/controllers/runtime/types'
import { api, configMap } from './helpers'

const configMaps = { group: '', version: 'v1', plural: 'configmaps' }
const keyOf = (o: { metadata: { namespace?: string; name?: string } }) => `${o.metadata.namespace}/${o.metadata.name}`

/** A controller that reconciles the ConfigMaps labelled `shared` and remembers which it saw. */
function recorder(name: string, seen: string[], queuesOn?: WakesOn): ControllerDefinition {
  return {
    name,
    watches: [configMaps],
    keysFor: (_r, o) => (o.metadata.labels?.shared ? [keyOf(o)] : []),
    allKeys: () => [],
    ...(queuesOn ? { queuesOn } : {}),
    reconcile: (key) => {
      seen.push(key)
      return { actions: [] }
    },
  }
}

describe('the keys a controller pass queues', () => {
  it('after a relist (the log compacted past its cache), queues the keys of objects deleted meanwhile', async () => {
    const seen: string[] = []
    const [runner] = runnersSharingCaches(env, [recorder('relisting', seen)])
    expect((await api('POST', '/api/v1/namespaces/default/configmaps', configMap('doomed', { k: 'v' }, { shared: 'yes' }))).status).toBe(201)
    await runner!.pass()
    expect(seen).toEqual(['default/doomed'])

    // While the controller is away, the object goes and the log moves on past what it read.
    expect((await api('DELETE', '/api/v1/namespaces/default/configmaps/doomed')).status).toBe(200)
    expect((await api('POST', '/api/v1/namespaces/default/configmaps', configMap('busy'))).status).toBe(201)
    for (let i = 0; i < 12; i++) await api('PUT', '/api/v1/namespaces/default/configmaps/busy', configMap('busy', { n: String(i) }))
    expect(await runDurableObjectAlarm(env.KIND_STORE.get(env.KIND_STORE.idFromName('core/configmaps')))).toBe(true)

    await runner!.pass()
    expect(runner!.caches.get(configMaps, 'default', 'doomed')).toBeUndefined()
    expect(seen).toEqual(['default/doomed', 'default/doomed'])
  })

  it('queues a change another controller of the host wrote, though its queuesOn compares it with itself', async () => {
    // The writer sets data.k to 2 on the ConfigMap `target` once told to, when any ConfigMap changes.
    let write = false
    const writer: ControllerDefinition = {
      name: 'writer',
      watches: [configMaps],
      keysFor: () => ['default/target'],
      allKeys: () => [],
      reconcile: (_key, cache) => {
        const target = cache.get(configMaps, 'default', 'target')
        if (!write || !target || (target as { data?: { k?: string } }).data?.k === '2') return { actions: [] }
        return { actions: [{ type: 'update', resource: configMaps, object: { ...target, data: { k: '2' } } }] }
      },
    }
    // The watcher only queues changes of data.k.
    const seen: string[] = []
    const dataOf = (o: unknown) => JSON.stringify((o as { data?: unknown } | undefined)?.data)
    const kChanged: WakesOn = (_r, type, o, previous) => type !== 'MODIFIED' || dataOf(o) !== dataOf(previous)
    const [w, watcher] = runnersSharingCaches(env, [writer, recorder('watcher', seen, kChanged)])
    expect((await api('POST', '/api/v1/namespaces/default/configmaps', configMap('target', { k: '1' }, { shared: 'yes' }))).status).toBe(201)
    await w!.pass()
    await watcher!.pass()
    expect(seen).toEqual(['default/target'])

    // The writer's pass writes k=2 and records its write in the caches both read, as it makes it.
    write = true
    expect((await api('POST', '/api/v1/namespaces/default/configmaps', configMap('nudge'))).status).toBe(201)
    const report = await w!.pass()
    expect(report.actions).toBe(1)
    // The watcher reads the change from the log: the cache held that very version already.
    await watcher!.pass()
    expect(seen).toEqual(['default/target', 'default/target'])
  })
})
