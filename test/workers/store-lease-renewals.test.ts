import { describe, expect, it } from 'vitest'
import { runDurableObjectAlarm } from 'cloudflare:test'
import { api, configMap, makeNamespace, openWatch } from './helpers'
import { rowsWrittenBy, storeOf } from './rows-written'
import { createLease, infoOf, leaseStore, leases, leasesStore, logOf, renew } from './lease-log'

describe('a lease renewal', () => {
  it("writes one row, the lease's own, once its update's log row lags; compaction writes that row out", async () => {
    await makeNamespace('renew-rows')
    const created = await createLease('renew-rows', 'a')
    const first = await renew('renew-rows', 'a')
    const lagging = await rowsWrittenBy(leaseStore, () => renew('renew-rows', 'a'))
    const renewals = 10
    let last = 0
    const rows = await rowsWrittenBy(leaseStore, async () => {
      for (let i = 0; i < renewals; i++) last = await renew('renew-rows', 'a')
    })
    console.log(
      `rows written per lease renewal: ${rows / renewals} (${lagging} as its row began to lag)`,
    )
    expect(rows).toBe(renewals)
    expect(await logOf(leaseStore, 'renew-rows/a')).toEqual([
      `ADDED ${created}<-0`,
      `LAGGING ${first}<-${created}`,
    ])
    // Compaction (COMPACT_RETAIN_EVENTS is 5) writes the row out first, at the lease's revision.
    const compaction = await rowsWrittenBy(leaseStore, async () => {
      expect(await runDurableObjectAlarm(storeOf(leaseStore))).toBe(true)
    })
    expect(await logOf(leaseStore, 'renew-rows/a')).toEqual([
      `ADDED ${created}<-0`,
      `MODIFIED ${last}<-${created}`,
    ])
    console.log(`rows written by compaction: ${compaction}`)
    expect(compaction).toBeLessThanOrEqual(4)
  })

  it('of another kind is a row of its own, as every update', async () => {
    await makeNamespace('renew-other')
    const cms = '/api/v1/namespaces/renew-other/configmaps'
    await api('POST', cms, configMap('c'))
    for (let i = 0; i < 3; i++) await api('PUT', `${cms}/c`, configMap('c', { n: `${i}` }))
    const log = await logOf('core/configmaps', 'renew-other/c')
    expect(log.map((r) => r.split(' ')[0])).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'MODIFIED'])
  })

  it('reaches a live watch every time, with rising resourceVersions', async () => {
    await makeNamespace('renew-live')
    const from = await createLease('renew-live', 'a')
    const watch = await openWatch(`${leases('renew-live')}?watch=true&resourceVersion=${from}`)
    const rvs: number[] = []
    for (let i = 0; i < 4; i++) rvs.push(await renew('renew-live', 'a', i))
    const events = await watch.received(4)
    watch.close()
    expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'MODIFIED', 'MODIFIED', 'MODIFIED'])
    expect(events.map((e) => Number(e.object.metadata.resourceVersion))).toEqual(rvs)
  })

  it('is replayed once, as its latest state, to a watch resumed from before it', async () => {
    await makeNamespace('renew-resume')
    const created = await createLease('renew-resume', 'a')
    const first = await renew('renew-resume', 'a', 1)
    await renew('renew-resume', 'a', 2)
    const latest = await renew('renew-resume', 'a', 3)
    // A lease created after the replay: what comes before it is the replay, whole.
    const markers: string[] = []
    for (const from of [first, created]) {
      const watch = await openWatch(`${leases('renew-resume')}?watch=true&resourceVersion=${from}`)
      markers.push(`ADDED ${await createLease('renew-resume', `marker-${from}`)}`)
      const events = await watch.received(1 + markers.length)
      watch.close()
      expect(events.map((e) => `${e.type} ${e.object.metadata.resourceVersion}`)).toEqual([
        `MODIFIED ${latest}`,
        ...markers,
      ])
    }
    const watch = await openWatch(
      `${leases('renew-resume')}?watch=true&resourceVersion=${created - 1}`,
    )
    const events = await watch.received(4)
    watch.close()
    expect(events.slice(0, 2).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
      'ADDED a',
      'MODIFIED a',
    ])
    expect(events[1]!.object.metadata.resourceVersion).toBe(String(latest))
  })

  it('is handed once, as its latest state, to a controller cache reading changes since before it', async () => {
    await makeNamespace('renew-cache')
    const created = await createLease('renew-cache', 'a')
    const first = await renew('renew-cache', 'a', 1)
    const latest = await renew('renew-cache', 'a', 2)
    for (const from of [first, created]) {
      const batch = await leasesStore().changesSince(from, 100)
      if (!batch.ok) throw new Error(`changesSince failed: ${JSON.stringify(batch)}`)
      const mine = batch.value.changes
        .map((c) => ({ type: c.type, object: JSON.parse(c.value) }))
        .filter((c) => c.object.metadata.namespace === 'renew-cache')
      expect(mine.map((c) => `${c.type} ${c.object.metadata.resourceVersion}`)).toEqual([
        `MODIFIED ${latest}`,
      ])
    }
  })

  it('answers a watch and a cache from below the compacted revision with 410 Expired', async () => {
    await makeNamespace('renew-expired')
    const created = await createLease('renew-expired', 'a')
    await createLease('renew-expired', 'b')
    for (let i = 0; i < 8; i++) await renew('renew-expired', 'b')
    expect(await runDurableObjectAlarm(storeOf(leaseStore))).toBe(true)
    const { compactedRv } = await infoOf(leaseStore)
    expect(compactedRv).toBeGreaterThan(created)
    const watch = await openWatch(
      `${leases('renew-expired')}?watch=true&resourceVersion=${created}`,
    )
    const [event] = await watch.received(1)
    watch.close()
    expect(event!.type).toBe('ERROR')
    expect(event!.object.code).toBe(410)
    const batch = await leasesStore().changesSince(created, 100)
    expect(batch.ok).toBe(false)
    if (!batch.ok) expect(batch.status.code).toBe(410)
  })

  it('then a deletion and a re-creation reach watchers as DELETED and ADDED', async () => {
    await makeNamespace('renew-recreate')
    const created = await createLease('renew-recreate', 'a')
    await renew('renew-recreate', 'a', 1)
    await renew('renew-recreate', 'a', 2)
    const live = await openWatch(
      `${leases('renew-recreate')}?watch=true&resourceVersion=${await renew('renew-recreate', 'a', 3)}`,
    )
    expect((await api('DELETE', `${leases('renew-recreate')}/a`)).status).toBe(200)
    const again = await createLease('renew-recreate', 'a')
    const renewed = await renew('renew-recreate', 'a', 4)
    const events = await live.received(3)
    live.close()
    expect(events.map((e) => `${e.type} ${e.object.metadata.resourceVersion}`)).toEqual([
      `DELETED ${again - 1}`,
      `ADDED ${again}`,
      `MODIFIED ${renewed}`,
    ])
    const resumed = await openWatch(
      `${leases('renew-recreate')}?watch=true&resourceVersion=${created}`,
    )
    const replayed = await resumed.received(4)
    resumed.close()
    expect(replayed.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED', 'ADDED', 'MODIFIED'])
    expect(replayed[3]!.object.metadata.resourceVersion).toBe(String(renewed))
  })
})
