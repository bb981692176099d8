import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../../src/apimachinery/status'
import { namespaceController, namespacedResources } from '../../../../src/controllers/namespace'
import { registerActions } from '../../../../src/controllers/runtime/dispatch'
import type { Action } from '../../../../src/controllers/runtime/types'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { newObject, res } from '../../../helpers'

describe("the runner's action dispatch", () => {
  it("performs a controller's own action with the handler it registered, which reaches the cluster only through the Worker's stores", async () => {
    const controller = namespaceController(namespacedResources())
    const ns = newObject(res.namespaces, 'doomed', {
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Terminating' },
    })
    ns.metadata.deletionTimestamp = '2025-06-01T12:00:00Z'
    const cache = new MemoryCache(ns)
    const [empty] = controller.reconcile(
      'doomed',
      cache,
      Date.parse('2025-06-01T12:00:01Z'),
    ).actions
    expect(empty).toMatchObject({ type: 'emptyNamespace', name: 'doomed' })
    const refused = await cache.apply(empty!).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).status).toMatchObject({
      code: 501,
      message: 'emptying a namespace is not modelled in memory',
    })
  })

  it('takes one handler per action type', () => {
    expect(() => registerActions({ create: async () => {} })).toThrow(
      'create actions have a handler already',
    )
  })

  it('refuses an action nothing handles', async () => {
    const unknown = { type: 'launchRocket' } as unknown as Action
    await expect(new MemoryCache().apply(unknown, 'tester')).rejects.toThrow(
      'tester asked for a launchRocket action, which nothing handles',
    )
  })
})
