import { describe, expect, it } from 'vitest'
import { env, runDurableObjectAlarm } from 'cloudflare:test'
import { runnersSharingCaches } from '../../src/controllers/runtime/shared-caches'
import type { ControllerDefinition } from '../../src/controllers/runtime/types'
import { api, configMap } from './helpers'

const configMaps = { group: '', version: 'v1', plural: 'configmaps' }
const keyOf = (o: { metadata: { namespace?: string; name?: string } }) =>
  `${o.metadata.namespace}/${o.metadata.name}`

/** A controller that reconciles the ConfigMaps labelled `shared` and remembers which it saw. */
function recorder(name: string, seen: string[]): ControllerDefinition {
  return {
    name,
    watches: {
      kinds: [configMaps],
      keysFor: (_r, o) => (o.metadata.labels?.shared ? [keyOf(o)] : []),
      allKeys: () => [],
    },
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
    expect(
      (
        await api(
          'POST',
          '/api/v1/namespaces/default/configmaps',
          configMap('doomed', { k: 'v' }, { shared: 'yes' }),
        )
      ).status,
    ).toBe(201)
    await runner!.pass()
    expect(seen).toEqual(['default/doomed'])

    // While the controller is away, the object goes and the log moves on past what it read.
    expect((await api('DELETE', '/api/v1/namespaces/default/configmaps/doomed')).status).toBe(200)
    expect(
      (await api('POST', '/api/v1/namespaces/default/configmaps', configMap('busy'))).status,
    ).toBe(201)
    for (let i = 0; i < 12; i++)
      await api(
        'PUT',
        '/api/v1/namespaces/default/configmaps/busy',
        configMap('busy', { n: String(i) }),
      )
    expect(
      await runDurableObjectAlarm(env.KIND_STORE.get(env.KIND_STORE.idFromName('core/configmaps'))),
    ).toBe(true)

    await runner!.pass()
    expect(runner!.caches.get(configMaps, 'default', 'doomed')).toBeUndefined()
    expect(seen).toEqual(['default/doomed', 'default/doomed'])
  })
})
