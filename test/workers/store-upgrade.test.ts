import { describe, expect, it } from 'vitest'
import {
  evictDurableObject,
  runDurableObjectAlarm,
  runInDurableObject,
  SELF,
} from 'cloudflare:test'
import { api, configMap, joinNode, openWatch } from './helpers'
import { storeOf } from './rows-written'
import { rewriteAsSchemaV1 } from '../fixtures/kind-store-schema-v1'
import type { KindStore } from '../../durable-objects/kind-store/kind-store'

const cms = '/api/v1/namespaces/upgrade/configmaps'

/** What a store holds, as its tables say. */
const contentOf = (name: string) =>
  runInDurableObject(storeOf(name), (s: KindStore, state) => ({
    info: s.info(),
    events: state.storage.sql
      .exec('SELECT rv, key, type, prev_rv, value FROM events ORDER BY rv')
      .toArray(),
    objects: state.storage.sql.exec('SELECT key, rv, value FROM objects ORDER BY key').toArray(),
  }))

const schemaOf = (name: string) =>
  runInDurableObject(storeOf(name), (_s, state) => ({
    version: state.storage.sql
      .exec<{ value: number }>("SELECT value FROM meta WHERE name = 'schema_version'")
      .toArray()[0]?.value,
    indexes: state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name",
      )
      .toArray()
      .map((r) => r.name),
    objects: state.storage.sql
      .exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'objects'")
      .one().sql,
  }))

async function asSchemaV1(name: string): Promise<void> {
  const indexes = await runInDurableObject(storeOf(name), (_s, state) => {
    rewriteAsSchemaV1(state.storage.sql)
    return state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
      )
      .toArray()
      .map((r) => r.name)
  })
  expect(indexes).toContain('events_key_rv')
  expect(indexes).toContain('objects_namespace_key')
  await evictDurableObject(storeOf(name))
}

describe('a store written by schema 1', () => {
  it('is upgraded in place: objects, resourceVersions, watch positions and node credentials kept', async () => {
    expect(
      (
        await api('POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'upgrade' },
        })
      ).status,
    ).toBe(201)
    for (const name of ['a', 'b', 'c']) await api('POST', cms, configMap(name))
    for (let i = 0; i < 4; i++) await api('PUT', `${cms}/a`, configMap('a', { n: `${i}` }))
    await api('DELETE', `${cms}/b`)
    for (let i = 0; i < 6; i++) await api('PUT', `${cms}/c`, configMap('c', { n: `${i}` }))
    expect(await runDurableObjectAlarm(storeOf('core/configmaps'))).toBe(true)
    const token = await joinNode('upgrade-node')
    const before = await contentOf('core/configmaps')
    const secretsBefore = await contentOf('core/secrets')
    expect(before.info.compactedRv).toBeGreaterThan(0)

    await asSchemaV1('core/configmaps')
    await asSchemaV1('core/secrets')
    expect((await schemaOf('core/configmaps')).version).toBe(2)

    expect(await contentOf('core/configmaps')).toEqual(before)
    expect(await contentOf('core/secrets')).toEqual(secretsBefore)
    const schema = await schemaOf('core/configmaps')
    expect(schema.indexes).toEqual([])
    expect(schema.objects).toContain('WITHOUT ROWID')

    // A watch from the compacted revision resumes with the same changes; one from before it is 410.
    const from = before.info.compactedRv
    const watch = await openWatch(`${cms}?watch=true&resourceVersion=${from}`)
    const expected = before.events.filter((e) => Number(e.rv) > from)
    const events = await watch.received(expected.length)
    watch.close()
    expect(events.map((e) => Number(e.object.metadata.resourceVersion))).toEqual(
      expected.map((e) => Number(e.rv)),
    )
    const gone = await openWatch(`${cms}?watch=true&resourceVersion=${from - 1}`)
    const [error] = await gone.received(1)
    expect(error!.object.code).toBe(410)

    const next = await api('POST', cms, configMap('after'))
    expect(Number(next.json.metadata.resourceVersion)).toBe(before.info.currentRv + 1)
    const node = await SELF.fetch('https://edgeplane.test/api/v1/nodes/upgrade-node', {
      headers: { Authorization: `Bearer ${token}` },
    })
    expect(node.status).toBe(200)
  })
})
