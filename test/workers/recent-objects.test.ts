import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:test'
import { findResource } from '../../src/apis/registry'
import { forgetRecentObject, recentObject } from '../../src/store-client/recent-objects'
import { api, configMap } from './helpers'

// The isolate's short-lived copies of single objects (a namespace's labels in admission, the pod
// behind an endpoint): served while young, read again once old or forgotten.

const configMaps = findResource('', 'v1', 'configmaps')!
const namespaces = findResource('', 'v1', 'namespaces')!
const hour = 3_600_000

async function setData(name: string, v: string): Promise<void> {
  const res = await api(
    'PATCH',
    `/api/v1/namespaces/default/configmaps/${name}`,
    { data: { k: v } },
    'application/merge-patch+json',
  )
  expect(res.status).toBe(200)
}

describe('recentObject', () => {
  it('serves its copy while younger than the caller allows, and reads the store again once older', async () => {
    expect(
      (
        await api(
          'POST',
          '/api/v1/namespaces/default/configmaps',
          configMap('recent-ttl', { k: 'one' }),
        )
      ).status,
    ).toBe(201)
    expect((await recentObject(env, configMaps, 'default', 'recent-ttl', hour))?.data).toEqual({
      k: 'one',
    })
    await setData('recent-ttl', 'two')
    expect((await recentObject(env, configMaps, 'default', 'recent-ttl', hour))?.data).toEqual({
      k: 'one',
    })
    expect((await recentObject(env, configMaps, 'default', 'recent-ttl', 0))?.data).toEqual({
      k: 'two',
    })
  })

  it('reads the store again after the object is forgotten', async () => {
    expect(
      (
        await api(
          'POST',
          '/api/v1/namespaces/default/configmaps',
          configMap('recent-forget', { k: 'one' }),
        )
      ).status,
    ).toBe(201)
    expect((await recentObject(env, configMaps, 'default', 'recent-forget', hour))?.data).toEqual({
      k: 'one',
    })
    await setData('recent-forget', 'two')
    forgetRecentObject(configMaps, 'default', 'recent-forget')
    expect((await recentObject(env, configMaps, 'default', 'recent-forget', hour))?.data).toEqual({
      k: 'two',
    })
  })

  it('answers undefined for an object that does not exist, and sees it once created and read again', async () => {
    expect(await recentObject(env, namespaces, undefined, 'recent-absent', hour)).toBeUndefined()
    expect(
      (
        await api('POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'recent-absent', labels: { tier: 'a' } },
        })
      ).status,
    ).toBe(201)
    expect(await recentObject(env, namespaces, undefined, 'recent-absent', hour)).toBeUndefined()
    expect(
      (await recentObject(env, namespaces, undefined, 'recent-absent', 0))?.metadata.labels,
    ).toEqual({ tier: 'a' })
  })

  it('keeps objects of the same name in different namespaces and kinds apart', async () => {
    expect(
      (
        await api('POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'recent-other' },
        })
      ).status,
    ).toBe(201)
    expect(
      (
        await api(
          'POST',
          '/api/v1/namespaces/default/configmaps',
          configMap('recent-same', { k: 'default' }),
        )
      ).status,
    ).toBe(201)
    expect(
      (
        await api(
          'POST',
          '/api/v1/namespaces/recent-other/configmaps',
          configMap('recent-same', { k: 'other' }),
        )
      ).status,
    ).toBe(201)
    expect((await recentObject(env, configMaps, 'default', 'recent-same', hour))?.data).toEqual({
      k: 'default',
    })
    expect(
      (await recentObject(env, configMaps, 'recent-other', 'recent-same', hour))?.data,
    ).toEqual({ k: 'other' })
    expect(await recentObject(env, namespaces, undefined, 'recent-same', hour)).toBeUndefined()
  })
})
