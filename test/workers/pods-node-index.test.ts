import { beforeAll, describe, expect, it } from 'vitest'
import { env, evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { api, openWatch } from './helpers'
import { podManifest } from '../helpers'

const ns = 'node-index'
const podsPath = `/api/v1/namespaces/${ns}/pods`
const store = () => env.KIND_STORE.get(env.KIND_STORE.idFromName('core/pods'))

async function create(name: string, nodeName?: string, labels?: Record<string, string>) {
  const res = await api('POST', podsPath, podManifest(name, { nodeName, labels }))
  expect(res.status).toBe(201)
  return res.json
}

async function bind(name: string, node: string) {
  const res = await api('POST', `${podsPath}/${name}/binding`, {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name },
    target: { kind: 'Node', name: node },
  })
  expect(res.status).toBe(201)
}

const names = (items: any[]) => items.map((i) => i.metadata.name as string)
const nodeOf = (p: any) => (p.spec?.nodeName as string | undefined) ?? ''
const q = encodeURIComponent

/** Every item of a LIST, page by page when `limit` is given. */
async function listAll(query: string, limit?: number): Promise<any[]> {
  const items: any[] = []
  let cont = ''
  for (let page = 0; page < 50; page++) {
    const res = await api(
      'GET',
      `${podsPath}?${query}${limit ? `&limit=${limit}` : ''}${cont ? `&continue=${q(cont)}` : ''}`,
    )
    expect(res.status).toBe(200)
    items.push(...res.json.items)
    cont = res.json.metadata.continue ?? ''
    if (!cont) return items
  }
  throw new Error('too many pages')
}

let beforeBind = ''

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
  await create('a1', 'idx-a', { app: 'web' })
  await create('a2', 'idx-a')
  await create('b1', 'idx-b', { app: 'web' })
  await create('u1')
  beforeBind = (await create('u2', undefined, { app: 'web' })).metadata.resourceVersion
  await bind('u2', 'idx-a')
})

describe('pods by spec.nodeName', () => {
  it('answers a node-pinned LIST as the same selector over every pod does', async () => {
    const all = await listAll('')
    expect(all.length).toBe(5)
    const cases: [string, string, (p: any) => boolean][] = [
      ['spec.nodeName=idx-a', '', (p) => nodeOf(p) === 'idx-a'],
      ['spec.host=idx-a', '', (p) => nodeOf(p) === 'idx-a'],
      ['spec.nodeName=', '', (p) => nodeOf(p) === ''],
      ['spec.nodeName=idx-b', '', (p) => nodeOf(p) === 'idx-b'],
      ['spec.nodeName=nobody', '', () => false],
      [
        'spec.nodeName=idx-a,metadata.name!=a1',
        '',
        (p) => nodeOf(p) === 'idx-a' && p.metadata.name !== 'a1',
      ],
      [
        'spec.nodeName=idx-a',
        'app=web',
        (p) => nodeOf(p) === 'idx-a' && p.metadata.labels?.app === 'web',
      ],
    ]
    for (const [fields, labels, want] of cases) {
      const query = `fieldSelector=${q(fields)}${labels ? `&labelSelector=${q(labels)}` : ''}`
      const expected = names(all.filter(want))
      expect(names(await listAll(query)), fields).toEqual(expected)
      expect(names(await listAll(query, 1)), `${fields} paged`).toEqual(expected)
    }
    expect(names(await listAll('fieldSelector=spec.nodeName%3Didx-a'))).toEqual(['a1', 'a2', 'u2'])
  })

  it('answers a node-pinned LIST at an older resourceVersion from that revision', async () => {
    const res = await api(
      'GET',
      `${podsPath}?fieldSelector=spec.nodeName%3Didx-a&resourceVersion=${beforeBind}&resourceVersionMatch=Exact`,
    )
    expect(res.status).toBe(200)
    expect(names(res.json.items)).toEqual(['a1', 'a2'])
  })

  it('sends a node-pinned watcher its node’s pods only, live and in replay, as an unpinned watcher filtered would see them', async () => {
    const from = (await api('GET', podsPath)).json.metadata.resourceVersion
    const pinned = await openWatch(
      `${podsPath}?watch=true&fieldSelector=spec.nodeName%3Didx-a&resourceVersion=${from}`,
    )
    const combined = await openWatch(
      `${podsPath}?watch=true&fieldSelector=${q('spec.nodeName=idx-a,status.phase!=Failed')}&resourceVersion=${from}`,
    )
    const every = await openWatch(`${podsPath}?watch=true&resourceVersion=${from}`)
    await create('c1', 'idx-b')
    await create('u3')
    await bind('u3', 'idx-a')
    await create('c2', 'idx-b')
    const expected = ['ADDED u3']
    await every.received(4)
    await pinned.received(1)
    await combined.received(1)
    const shown = (w: { events: { type: string; object: any }[] }) =>
      w.events.map((e) => `${e.type} ${e.object.metadata.name}`)
    expect(shown(every)).toEqual(['ADDED c1', 'ADDED u3', 'MODIFIED u3', 'ADDED c2'])
    // c2 was written after u3's binding: had the pinned watchers been sent it, it would be here by now.
    expect(shown(pinned)).toEqual(expected)
    expect(shown(combined)).toEqual(expected)
    const replayed = await openWatch(
      `${podsPath}?watch=true&fieldSelector=spec.nodeName%3Didx-a&resourceVersion=${from}`,
    )
    await replayed.received(1)
    expect(shown(replayed)).toEqual(expected)
    const current = await openWatch(
      `${podsPath}?watch=true&fieldSelector=spec.nodeName%3Didx-a&resourceVersion=0`,
    )
    await current.received(4)
    expect(shown(current).sort()).toEqual(['ADDED a1', 'ADDED a2', 'ADDED u2', 'ADDED u3'])
    for (const w of [pinned, combined, every, replayed, current]) w.close()
  })

  it('fills the node_name column of a store written before it existed', async () => {
    const before = names(await listAll('fieldSelector=spec.nodeName%3Didx-a'))
    await evictDurableObject(store())
    await runInDurableObject(store(), (_instance, state) => {
      const sql = state.storage.sql
      sql.exec('DROP INDEX objects_node_name_key')
      sql.exec('ALTER TABLE objects DROP COLUMN node_name')
      sql.exec('ALTER TABLE events DROP COLUMN node_name')
      sql.exec("DELETE FROM meta WHERE name = 'node_name_column'")
    })
    await evictDurableObject(store())
    expect(names(await listAll('fieldSelector=spec.nodeName%3Didx-a'))).toEqual(before)
    expect(names(await listAll('fieldSelector=spec.nodeName%3D'))).toEqual(['u1'])
    await runInDurableObject(store(), (_instance, state) => {
      const rows = state.storage.sql
        .exec<{ node_name: string; value: string }>('SELECT node_name, value FROM objects')
        .toArray()
      expect(rows.length).toBeGreaterThan(0)
      for (const row of rows) expect(row.node_name).toBe(JSON.parse(row.value).spec?.nodeName ?? '')
      const events = state.storage.sql
        .exec<{ node_name: string; value: string }>('SELECT node_name, value FROM events')
        .toArray()
      for (const row of events)
        expect(row.node_name).toBe(JSON.parse(row.value).spec?.nodeName ?? '')
      const plan = state.storage.sql
        .exec<{ detail: string }>(
          "EXPLAIN QUERY PLAN SELECT key FROM objects WHERE node_name = 'idx-a' AND key > '' ORDER BY key",
        )
        .toArray()
      expect(plan.map((p) => p.detail).join(' ')).toContain('objects_node_name_key')
    })
  })
})
