import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, configMap } from './helpers'
import { storeReplyBytes } from '../../src/config'
import { findResource } from '../../src/apis/registry'
import { storeFor } from '../../src/store-client/stores'

// Objects of about 1 MiB each: enough of them outgrow what one store reply may carry.
const objectBytes = 1024 * 1024
const count = Math.ceil((storeReplyBytes * 1.5) / objectBytes)
const ns = 'big-lists'
const big = (i: number) => ({
  ...configMap(`big-${i}`, { blob: String(i % 10).repeat(objectBytes) }, { set: 'big' }),
  metadata: { name: `big-${i}`, namespace: ns, labels: { set: 'big' } },
})

describe('lists larger than one store reply', () => {
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
    for (let i = 0; i < count; i++)
      expect((await api('POST', `/api/v1/namespaces/${ns}/configmaps`, big(i))).status).toBe(201)
  })

  it('cuts a store page at its reply budget, with a continue token, even under a larger limit', async () => {
    const def = findResource('', 'v1', 'configmaps')!
    const page = await storeFor(env, def).list('configmaps', { namespace: ns, limit: 500 })
    if (!page.ok) throw new Error(`store list failed: ${JSON.stringify(page)}`)
    expect(page.value.items.length).toBeLessThan(count)
    expect(page.value.items.join('').length).toBeLessThan(storeReplyBytes + 2 * objectBytes)
    expect(page.value.continue).toBeTruthy()
  })

  it('hands controllers changes in batches that stay within the reply budget', async () => {
    const store = storeFor(env, findResource('', 'v1', 'configmaps')!)
    let rv = 0
    let seen = 0
    for (let reads = 0; reads < count + 5; reads++) {
      const batch = await store.changesSince(rv, 2000)
      if (!batch.ok) throw new Error(`changesSince failed: ${JSON.stringify(batch)}`)
      expect(batch.value.changes.map((c) => c.value).join('').length).toBeLessThan(
        storeReplyBytes + 2 * objectBytes,
      )
      seen += batch.value.changes.filter((c) => c.value.includes('"big-')).length
      rv = batch.value.rv
      if (!batch.value.more) break
    }
    expect(seen).toBe(count)
  })

  it('answers an unpaginated LIST with every object, in one list of one resourceVersion', async () => {
    const res = await api('GET', `/api/v1/namespaces/${ns}/configmaps`)
    expect(res.status).toBe(200)
    expect(res.json.kind).toBe('ConfigMapList')
    expect(res.json.metadata.continue).toBeUndefined()
    expect(res.json.items.map((o: any) => o.metadata.name).sort()).toEqual(
      Array.from({ length: count }, (_, i) => `big-${i}`).sort(),
    )
  })

  it('gives a client that set limit fewer items and a continue token that reaches the rest', async () => {
    const first = await api('GET', `/api/v1/namespaces/${ns}/configmaps?limit=500`)
    expect(first.status).toBe(200)
    expect(first.json.items.length).toBeLessThan(count)
    const rest = await api(
      'GET',
      `/api/v1/namespaces/${ns}/configmaps?limit=500&continue=${encodeURIComponent(first.json.metadata.continue)}`,
    )
    expect(first.json.items.length + rest.json.items.length).toBe(count)
  })

  it('deletes a collection larger than one reply and lists every deleted object', async () => {
    const res = await api('DELETE', `/api/v1/namespaces/${ns}/configmaps?labelSelector=set%3Dbig`)
    expect(res.status).toBe(200)
    expect(res.json.items).toHaveLength(count)
    expect((await api('GET', `/api/v1/namespaces/${ns}/configmaps`)).json.items).toHaveLength(0)
  })
})
