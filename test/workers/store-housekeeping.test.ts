import { describe, expect, it } from 'vitest'
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { api, configMap, makeNamespace, openWatch } from './helpers'
import { rowsWrittenBy, storeOf } from './rows-written'
import type { KindStore } from '../../durable-objects/kind-store/kind-store'
import { Log } from '../../durable-objects/kind-store/log'
import { WatchHub } from '../../durable-objects/kind-store/watch-hub'
import {
  Housekeeping,
  compactionSlackMs,
  type HousekeepingSettings,
} from '../../durable-objects/kind-store/housekeeping'

const cms = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`
const alarmOf = (name: string) =>
  runInDurableObject(storeOf(name), (_i, state) => state.storage.getAlarm())
const infoOf = (name: string) => runInDurableObject(storeOf(name), (s: KindStore) => s.info())

describe('an idle store', () => {
  it('with a bookmark watcher books no alarm for it: a write sends one, no more than once a minute', async () => {
    await makeNamespace('idle')
    const created = await api('POST', cms('idle'), configMap('a'))
    const watch = await openWatch(
      `${cms('idle')}?watch=true&allowWatchBookmarks=true&resourceVersion=${created.json.metadata.resourceVersion}`,
    )
    expect(await alarmOf('core/configmaps')).toBeNull()
    // A write it is not shown: a bookmark at that write's resourceVersion.
    await makeNamespace('idle-other')
    const other = await api('POST', cms('idle-other'), configMap('b'))
    const [first] = await watch.received(1)
    expect(first!.type).toBe('BOOKMARK')
    expect(first!.object.metadata.resourceVersion).toBe(other.json.metadata.resourceVersion)
    // The writes within the minute after it send none.
    await api('PUT', `${cms('idle-other')}/b`, configMap('b', { k: 'v' }))
    const changed = await api('PUT', `${cms('idle')}/a`, configMap('a', { k: 'w' }))
    const events = await watch.received(2)
    expect(events.map((e) => e.type)).toEqual(['BOOKMARK', 'MODIFIED'])
    expect(events[1]!.object.metadata.resourceVersion).toBe(changed.json.metadata.resourceVersion)
    expect(await alarmOf('core/configmaps')).toBeNull()
    watch.close()
  })

  it('books no alarm for a write when no watcher asked for bookmarks and its log is within what it retains', async () => {
    const res = await api('POST', '/api/v1/namespaces/default/podtemplates', {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 'quiet' },
      template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    })
    expect(res.status).toBe(201)
    expect((await infoOf('core/podtemplates')).currentRv).toBeLessThanOrEqual(5)
    expect(await alarmOf('core/podtemplates')).toBeNull()
  })

  it('books an Event store for the next expiry, not every minute', async () => {
    const res = await api('POST', '/api/v1/namespaces/default/events', {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'idle-news' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
      reason: 'Tested',
      message: 'quiet',
    })
    expect(res.status).toBe(201)
    expect(await runDurableObjectAlarm(storeOf('core/events'))).toBe(true)
    const at = await alarmOf('core/events')
    expect(at).not.toBeNull()
    expect(at!).toBeGreaterThan(Date.now() + 30 * 60_000)
  })
})

describe('compaction', () => {
  it('keeps every read at or after the compacted revision, and writes nothing when nothing changed', async () => {
    await makeNamespace('compact')
    for (const name of ['a', 'b', 'c']) await api('POST', cms('compact'), configMap(name))
    for (let i = 0; i < 3; i++)
      await api('PUT', `${cms('compact')}/a`, configMap('a', { n: `${i}` }))
    await api('DELETE', `${cms('compact')}/b`)
    const then = await api('GET', cms('compact'))
    const rv = then.json.metadata.resourceVersion
    // Five changes after `rv` (the store keeps the last five: COMPACT_RETAIN_EVENTS).
    await api('PUT', `${cms('compact')}/a`, configMap('a', { n: 'later' }))
    await api('DELETE', `${cms('compact')}/c`)
    await api('POST', cms('compact'), configMap('b'))
    await api('POST', cms('compact'), configMap('d'))
    await api('PUT', `${cms('compact')}/d`, configMap('d', { n: '1' }))
    expect(await runDurableObjectAlarm(storeOf('core/configmaps'))).toBe(true)
    const info = await infoOf('core/configmaps')
    expect(info.compactedRv).toBe(Number(rv))
    // What is left: the latest event at or before `rv` of a and c (b's deletion dropped), then the five.
    const left = await runInDurableObject(storeOf('core/configmaps'), (_i, state) =>
      state.storage.sql
        .exec<{ key: string; type: string }>(
          "SELECT key, type FROM events WHERE namespace = 'compact' ORDER BY rv",
        )
        .toArray()
        .map((e) => `${e.type} ${e.key}`),
    )
    expect(left).toEqual([
      'ADDED compact/c',
      'MODIFIED compact/a',
      'MODIFIED compact/a',
      'DELETED compact/c',
      'ADDED compact/b',
      'ADDED compact/d',
      'MODIFIED compact/d',
    ])
    const at = await api(
      'GET',
      `${cms('compact')}?resourceVersion=${rv}&resourceVersionMatch=Exact`,
    )
    expect(at.status).toBe(200)
    expect(at.json.items).toEqual(then.json.items)
    const paged = await api(
      'GET',
      `${cms('compact')}?resourceVersion=${rv}&resourceVersionMatch=Exact&limit=1`,
    )
    const rest = await api(
      'GET',
      `${cms('compact')}?limit=5&continue=${paged.json.metadata.continue}`,
    )
    expect([...paged.json.items, ...rest.json.items]).toEqual(then.json.items)
    const watch = await openWatch(`${cms('compact')}?watch=true&resourceVersion=${rv}`)
    const events = await watch.received(5)
    watch.close()
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
      'MODIFIED a',
      'DELETED c',
      'ADDED b',
      'ADDED d',
      'MODIFIED d',
    ])
    const old = await api(
      'GET',
      `${cms('compact')}?resourceVersion=${Number(rv) - 1}&resourceVersionMatch=Exact`,
    )
    expect(old.status).toBe(410)
    const idle = await rowsWrittenBy('core/configmaps', () =>
      runDurableObjectAlarm(storeOf('core/configmaps')),
    )
    expect(idle).toBe(0)
  })
})

describe("a store's alarm for compaction", () => {
  const retainMs = 300_000
  const settings: HousekeepingSettings = {
    compactRetainEvents: 5,
    compactRetainMs: retainMs,
    eventTtlMs: 3_600_000,
  }
  /** A store's housekeeping with `settings` (five changes and five minutes kept), its log and its alarm. */
  async function housekeepingOf(name: string, deadline: () => number | undefined) {
    return runInDurableObject(storeOf(name), (_i, state) => {
      const log = new Log(state.storage.sql)
      const housekeeping = new Housekeeping(
        state,
        log,
        new WatchHub(state),
        () => settings,
        () => false,
        () => false,
        deadline,
      )
      /** `count` config maps written `stepMs` apart from `fromMs`, each followed by what a write books */
      const write = (count: number, fromMs: number, stepMs: number) =>
        runInDurableObject(storeOf(name), () => {
          for (let i = 0; i < count; i++) {
            const at = fromMs + i * stepMs
            const key = `burst/c${log.currentRv}`
            state.storage.transactionSync(() =>
              log.append(
                'ADDED',
                key,
                'burst',
                { ...configMap(key), metadata: { name: key } },
                undefined,
                at,
              ),
            )
            housekeeping.soon(log.currentRv, at)
          }
        })
      return { log, housekeeping, write }
    })
  }

  it('after a burst of writes is booked once, when all of it has aged out, and compacts it all then', async () => {
    const { log, housekeeping, write } = await housekeepingOf(
      'test/compaction-burst',
      () => undefined,
    )
    const t = Date.now()
    // 40 writes over 20 s: the changes beyond the five kept are written by t + 17 s.
    await write(40, t, 500)
    const agedOut = t + 17_000 + retainMs
    const at = (await alarmOf('test/compaction-burst'))!
    expect(at).toBeGreaterThanOrEqual(agedOut)
    expect(at).toBeLessThanOrEqual(agedOut + compactionSlackMs)
    // The alarm fires (the runtime takes it off the books) and runs housekeeping at its time.
    await runInDurableObject(storeOf('test/compaction-burst'), async (_i, state) => {
      await state.storage.deleteAlarm()
      await housekeeping.run(at)
    })
    // All of it compacted in that one run, and no other alarm booked for it.
    expect(log.compactedRv).toBe(log.currentRv - 5)
    expect(await alarmOf('test/compaction-burst')).toBeNull()
  })

  it('runs on time when a deadline it shares the alarm with moves later', async () => {
    let deadline: number | undefined = Date.now() + 30_000
    const { write } = await housekeepingOf('test/compaction-deadline', () => deadline)
    const t = Date.now()
    await write(10, t, 0)
    expect(await alarmOf('test/compaction-deadline')).toBe(deadline)
    const compaction = t + retainMs + compactionSlackMs
    // The deadline moves past the compaction due: the next write moves the alarm to the compaction.
    deadline = t + retainMs + 60_000
    await write(1, t + 1000, 0)
    expect(await alarmOf('test/compaction-deadline')).toBe(compaction)
    // And back to the deadline when it comes before the compaction again.
    deadline = t + 40_000
    await write(1, t + 2000, 0)
    expect(await alarmOf('test/compaction-deadline')).toBe(deadline)
  })
})
