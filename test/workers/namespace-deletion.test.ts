import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { ControllerRunner, defaultRunnerOptions } from '../../src/controllers/runtime/runner'
import { namespaceController, namespacedResources } from '../../src/controllers/namespace'
import { api, configMap } from './helpers'

const ns = 'emptied'
const conditionOf = (o: any, type: string) =>
  (o.status?.conditions ?? []).find((c: any) => c.type === type)

describe('namespace deletion, emptied in the stores', () => {
  it('deletes every object, reports what a finalizer holds, and removes the namespace once it is gone', async () => {
    expect(
      (
        await api('POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: ns },
        })
      ).status,
    ).toBe(201)
    for (let i = 0; i < 30; i++)
      expect(
        (await api('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(`c${i}`))).status,
      ).toBe(201)
    const heldBody = {
      ...configMap('held'),
      metadata: { name: 'held', finalizers: ['example.com/hold'] },
    }
    expect((await api('POST', `/api/v1/namespaces/${ns}/configmaps`, heldBody)).status).toBe(201)
    expect(
      (
        await api('POST', `/api/v1/namespaces/${ns}/secrets`, {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 's' },
          stringData: { a: 'b' },
        })
      ).status,
    ).toBe(201)
    expect(
      (await api('POST', '/api/v1/namespaces/default/configmaps', configMap('bystander'))).status,
    ).toBe(201)
    expect((await api('DELETE', `/api/v1/namespaces/${ns}`)).status).toBeLessThan(300)

    const runner = new ControllerRunner(
      env,
      namespaceController(namespacedResources()),
      defaultRunnerOptions,
    )
    let now = Date.now()
    await runner.pass(() => now)

    const left = (await api('GET', `/api/v1/namespaces/${ns}/configmaps`)).json.items
    expect(left.map((o: any) => o.metadata.name)).toEqual(['held'])
    expect(left[0].metadata.deletionTimestamp).toBeTruthy()
    expect((await api('GET', `/api/v1/namespaces/${ns}/secrets`)).json.items).toEqual([])
    expect((await api('GET', '/api/v1/namespaces/default/configmaps/bystander')).status).toBe(200)
    const waiting = (await api('GET', `/api/v1/namespaces/${ns}`)).json
    expect(waiting.status.phase).toBe('Terminating')
    expect(conditionOf(waiting, 'NamespaceContentRemaining')).toMatchObject({
      status: 'True',
      message: 'Some resources are remaining: configmaps. has 1 resource instances',
    })
    expect(conditionOf(waiting, 'NamespaceFinalizersRemaining')).toMatchObject({
      status: 'True',
      message:
        'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    })

    expect(
      (
        await api(
          'PATCH',
          `/api/v1/namespaces/${ns}/configmaps/held`,
          { metadata: { finalizers: null } },
          'application/merge-patch+json',
        )
      ).status,
    ).toBe(200)
    now += 60_000
    await runner.pass(() => now)
    expect((await api('GET', `/api/v1/namespaces/${ns}`)).status).toBe(404)
  })
})
