import { describe, expect, it } from 'vitest'
import { env, runDurableObjectAlarm, evictDurableObject } from 'cloudflare:test'
import { api, configMap, makeNamespace, openWatch } from './helpers'

const cms = (ns = 'default') => `/api/v1/namespaces/${ns}/configmaps`

describe('resourceVersion', () => {
  it('is strictly increasing and unique under concurrent writers', async () => {
    await makeNamespace('rv-concurrent')
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => api('POST', cms('rv-concurrent'), configMap(`cm-${i}`))),
    )
    expect(results.every((r) => r.status === 201)).toBe(true)
    const rvs = results.map((r) => Number(r.json.metadata.resourceVersion))
    expect(new Set(rvs).size).toBe(40)
    const list = await api('GET', cms('rv-concurrent'))
    expect(Number(list.json.metadata.resourceVersion)).toBeGreaterThanOrEqual(Math.max(...rvs))
    const sorted = [...rvs].sort((a, b) => a - b)
    expect(sorted[sorted.length - 1]! - sorted[0]!).toBe(39)
  })

  it('rejects an update with a stale resourceVersion with 409 and loses no update', async () => {
    await makeNamespace('rv-conflict')
    const created = await api('POST', cms('rv-conflict'), configMap('shared', { n: '0' }))
    const stale = created.json
    const first = await api('PUT', `${cms('rv-conflict')}/shared`, { ...stale, data: { n: '1' } })
    expect(first.status).toBe(200)
    const second = await api('PUT', `${cms('rv-conflict')}/shared`, { ...stale, data: { n: '2' } })
    expect(second.status).toBe(409)
    expect(second.json.reason).toBe('Conflict')
    expect(second.json.message).toBe(
      'Operation cannot be fulfilled on configmaps "shared": the object has been modified; please apply your changes to the latest version and try again',
    )
    const now = await api('GET', `${cms('rv-conflict')}/shared`)
    expect(now.json.data).toEqual({ n: '1' })
  })

  it('keeps the resourceVersion when a write changes nothing', async () => {
    await makeNamespace('rv-noop')
    const created = await api('POST', cms('rv-noop'), configMap('same'))
    const patched = await api(
      'PATCH',
      `${cms('rv-noop')}/same`,
      { data: { k: 'v' } },
      'application/merge-patch+json',
    )
    expect(patched.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion)
  })
})

describe('watch', () => {
  it('replays from a resourceVersion under concurrent writes with no gap and no duplicate', async () => {
    await makeNamespace('watch-replay')
    const first = await api('POST', cms('watch-replay'), configMap('w-0'))
    const from = first.json.metadata.resourceVersion
    const writes = Array.from({ length: 30 }, (_, i) =>
      api('POST', cms('watch-replay'), configMap(`w-${i + 1}`)),
    )
    const watch = await openWatch(`${cms('watch-replay')}?watch=true&resourceVersion=${from}`)
    const more = Array.from({ length: 20 }, (_, i) =>
      api('POST', cms('watch-replay'), configMap(`w-late-${i}`)),
    )
    await Promise.all([...writes, ...more])
    const events = await watch.received(50)
    watch.close()
    const names = events.map((e) => e.object.metadata.name)
    expect(new Set(names).size).toBe(50)
    expect(names).not.toContain('w-0')
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion))
    for (let i = 1; i < rvs.length; i++) expect(rvs[i]).toBeGreaterThan(rvs[i - 1]!)
    expect(events.every((e) => e.type === 'ADDED')).toBe(true)
  })

  it('sends current objects as ADDED for resourceVersion 0, then live changes, filtered by selectors', async () => {
    await makeNamespace('watch-live')
    await api('POST', cms('watch-live'), configMap('a', {}, { app: 'web' }))
    await api('POST', cms('watch-live'), configMap('b', {}, { app: 'db' }))
    const watch = await openWatch(
      `${cms('watch-live')}?watch=true&resourceVersion=0&labelSelector=app%3Dweb`,
    )
    await watch.received(1)
    await api(
      'PATCH',
      `${cms('watch-live')}/b`,
      { metadata: { labels: { app: 'web' } } },
      'application/merge-patch+json',
    )
    await api(
      'PATCH',
      `${cms('watch-live')}/a`,
      { metadata: { labels: { app: 'other' } } },
      'application/merge-patch+json',
    )
    await api('DELETE', `${cms('watch-live')}/b`)
    const events = await watch.received(4)
    watch.close()
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
      'ADDED a',
      'ADDED b',
      'DELETED a',
      'DELETED b',
    ])
  })

  it('answers a watch from a compacted resourceVersion with 410 Expired', async () => {
    await makeNamespace('watch-expired')
    const first = await api('POST', cms('watch-expired'), configMap('c-0'))
    for (let i = 1; i <= 12; i++)
      await api('PUT', `${cms('watch-expired')}/c-0`, { ...configMap('c-0', { n: String(i) }) })
    const stub = env.KIND_STORE.get(env.KIND_STORE.idFromName('core/configmaps'))
    expect(await runDurableObjectAlarm(stub)).toBe(true)
    const watch = await openWatch(
      `${cms('watch-expired')}?watch=true&resourceVersion=${first.json.metadata.resourceVersion}`,
    )
    const [event] = await watch.received(1)
    watch.close()
    expect(event!.type).toBe('ERROR')
    expect(event!.object.code).toBe(410)
    expect(event!.object.reason).toBe('Expired')
    const list = await api(
      'GET',
      `${cms('watch-expired')}?resourceVersion=${first.json.metadata.resourceVersion}&resourceVersionMatch=Exact`,
    )
    expect(list.status).toBe(410)
    expect(list.json.reason).toBe('Expired')
  })
})

describe('list', () => {
  it('filters by label and field selectors, and rejects unsupported field labels', async () => {
    await makeNamespace('sel')
    await api('POST', cms('sel'), configMap('x1', {}, { tier: 'front', env: 'prod' }))
    await api('POST', cms('sel'), configMap('x2', {}, { tier: 'back', env: 'prod' }))
    await api('POST', cms('sel'), configMap('x3', {}, { tier: 'front' }))
    const names = async (q: string) =>
      (await api('GET', `${cms('sel')}?${q}`)).json.items.map((i: any) => i.metadata.name)
    expect(await names('labelSelector=tier%3Dfront')).toEqual(['x1', 'x3'])
    expect(await names('labelSelector=tier%20in%20(front,back),env')).toEqual(['x1', 'x2'])
    expect(await names('labelSelector=!env')).toEqual(['x3'])
    expect(await names('labelSelector=tier!%3Dfront')).toEqual(['x2'])
    expect(await names('fieldSelector=metadata.name%3Dx2')).toEqual(['x2'])
    expect(await names('fieldSelector=metadata.name!%3Dx2')).toEqual(['x1', 'x3'])
    const bad = await api('GET', `${cms('sel')}?fieldSelector=spec.nope%3D1`)
    expect(bad.status).toBe(400)
    expect(bad.json.reason).toBe('BadRequest')
  })

  it('pages from one consistent snapshot even while objects change', async () => {
    await makeNamespace('pages')
    for (let i = 0; i < 7; i++) await api('POST', cms('pages'), configMap(`p-${i}`, { v: 'old' }))
    const page1 = await api('GET', `${cms('pages')}?limit=3`)
    expect(page1.json.items.map((i: any) => i.metadata.name)).toEqual(['p-0', 'p-1', 'p-2'])
    expect(page1.json.metadata.remainingItemCount).toBe(4)
    await api('DELETE', `${cms('pages')}/p-4`)
    await api('PUT', `${cms('pages')}/p-5`, configMap('p-5', { v: 'new' }))
    await api('POST', cms('pages'), configMap('p-9'))
    const page2 = await api(
      'GET',
      `${cms('pages')}?limit=3&continue=${page1.json.metadata.continue}`,
    )
    const page3 = await api(
      'GET',
      `${cms('pages')}?limit=3&continue=${page2.json.metadata.continue}`,
    )
    const rest = [...page2.json.items, ...page3.json.items]
    expect(rest.map((i: any) => i.metadata.name)).toEqual(['p-3', 'p-4', 'p-5', 'p-6'])
    expect(rest.find((i: any) => i.metadata.name === 'p-5').data).toEqual({ v: 'old' })
    expect(page3.json.metadata.continue).toBeUndefined()
    expect(page2.json.metadata.resourceVersion).toBe(page1.json.metadata.resourceVersion)
  })
})

describe('deletion', () => {
  it('holds an object with finalizers until the last finalizer is removed', async () => {
    await makeNamespace('fin')
    await api('POST', cms('fin'), {
      ...configMap('held'),
      metadata: { name: 'held', finalizers: ['example.com/hold'] },
    })
    const del = await api('DELETE', `${cms('fin')}/held`)
    expect(del.status).toBe(202)
    expect(del.json.metadata.deletionTimestamp).toBeTruthy()
    expect((await api('GET', `${cms('fin')}/held`)).status).toBe(200)
    const added = await api(
      'PATCH',
      `${cms('fin')}/held`,
      { metadata: { finalizers: ['example.com/hold', 'other'] } },
      'application/merge-patch+json',
    )
    expect(added.status).toBe(422)
    const released = await api(
      'PATCH',
      `${cms('fin')}/held`,
      { metadata: { finalizers: null } },
      'application/merge-patch+json',
    )
    expect(released.status).toBe(200)
    expect((await api('GET', `${cms('fin')}/held`)).status).toBe(404)
  })

  it('honours uid and resourceVersion preconditions', async () => {
    await makeNamespace('pre')
    await api('POST', cms('pre'), configMap('guarded'))
    const res = await api('DELETE', `${cms('pre')}/guarded`, {
      preconditions: { uid: 'not-the-uid' },
    })
    expect(res.status).toBe(409)
    expect(res.json.message).toContain('Precondition failed: UID in precondition: not-the-uid')
    expect((await api('GET', `${cms('pre')}/guarded`)).status).toBe(200)
  })
})

describe('collections and bookmarks', () => {
  it('deletes every selected object with deletecollection and leaves the rest', async () => {
    await makeNamespace('dc')
    await api('POST', cms('dc'), configMap('keep', {}, { tier: 'db' }))
    await api('POST', cms('dc'), configMap('drop-1', {}, { tier: 'web' }))
    await api('POST', cms('dc'), configMap('drop-2', {}, { tier: 'web' }))
    const res = await api('DELETE', `${cms('dc')}?labelSelector=tier%3Dweb`)
    expect(res.status).toBe(200)
    expect(res.json.items.map((i: any) => i.metadata.name)).toEqual(['drop-1', 'drop-2'])
    expect((await api('GET', cms('dc'))).json.items.map((i: any) => i.metadata.name)).toEqual([
      'keep',
    ])
  })

  it('sends a BOOKMARK with the current resourceVersion to watchers that asked for bookmarks', async () => {
    await makeNamespace('bm')
    const created = await api('POST', cms('bm'), configMap('b'))
    const watch = await openWatch(
      `${cms('bm')}?watch=true&allowWatchBookmarks=true&resourceVersion=${created.json.metadata.resourceVersion}`,
    )
    // A write the watch is not shown brings it the write's resourceVersion.
    await makeNamespace('bm-other')
    const other = await api('POST', cms('bm-other'), configMap('o'))
    const [event] = await watch.received(1)
    watch.close()
    expect(event!.type).toBe('BOOKMARK')
    expect(event!.object.kind).toBe('ConfigMap')
    expect(event!.object.metadata.resourceVersion).toBe(other.json.metadata.resourceVersion)
  })
})

describe('persistence', () => {
  it('keeps objects and resourceVersions across a store restart', async () => {
    await makeNamespace('persist')
    const created = await api('POST', cms('persist'), configMap('kept'))
    const stub = env.KIND_STORE.get(env.KIND_STORE.idFromName('core/configmaps'))
    await evictDurableObject(stub, { webSockets: 'close' })
    const got = await api('GET', `${cms('persist')}/kept`)
    expect(got.status).toBe(200)
    expect(got.json.metadata.uid).toBe(created.json.metadata.uid)
    const next = await api('POST', cms('persist'), configMap('after'))
    expect(Number(next.json.metadata.resourceVersion)).toBeGreaterThan(
      Number(created.json.metadata.resourceVersion),
    )
  })
})
