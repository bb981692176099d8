import { describe, expect, it } from 'vitest'
import { runDurableObjectAlarm } from 'cloudflare:test'
import { api, makeNamespace } from './helpers'
import { storeOf } from './rows-written'
import { createLease, infoOf, leaseStore, leases, leasesAt, logOf, renew } from './lease-log'

describe('a list at an older resourceVersion, of leases renewed since', () => {
  it('shows each renewed lease as the revision before its rewritten update, on every page', async () => {
    await makeNamespace('renew-list')
    const a = await createLease('renew-list', 'a')
    const b = await createLease('renew-list', 'b')
    const c = await createLease('renew-list', 'c')
    await renew('renew-list', 'a', 1)
    const then = await api('GET', leases('renew-list'))
    const rv = Number(then.json.metadata.resourceVersion)
    // The renewal `then` showed is rewritten by the next one: the list at `rv` shows the creation.
    await renew('renew-list', 'a', 2)
    await renew('renew-list', 'b', 1)
    const expected = [`a@${a}`, `b@${b}`, `c@${c}`]
    expect(await leasesAt('renew-list', rv)).toEqual(expected)
    expect(await leasesAt('renew-list', rv, 1)).toEqual(expected)
    expect(await leasesAt('renew-list', rv, 2)).toEqual(expected)
    // A list continued from the current revision, with renewals between its pages.
    const first = await api('GET', `${leases('renew-list')}?limit=1`)
    await renew('renew-list', 'b', 2)
    await renew('renew-list', 'c', 1)
    await renew('renew-list', 'c', 2)
    const rest = await api(
      'GET',
      `${leases('renew-list')}?limit=5&continue=${first.json.metadata.continue}`,
    )
    expect(rest.status).toBe(200)
    expect([...first.json.items, ...rest.json.items].map((o) => o.metadata.name)).toEqual([
      'a',
      'b',
      'c',
    ])
  })

  it('misses no lease at any revision compaction keeps, for a lease renewed after compaction passed it', async () => {
    await makeNamespace('renew-compact')
    await createLease('renew-compact', 'p')
    await createLease('renew-compact', 'q')
    await renew('renew-compact', 'p', 1)
    const pLast = await renew('renew-compact', 'p', 2)
    // q's renewals carry the head on, far past p's update: compaction reaches it.
    for (let i = 0; i < 7; i++) await renew('renew-compact', 'q', i)
    expect(await runDurableObjectAlarm(storeOf(leaseStore))).toBe(true)
    const { compactedRv } = await infoOf(leaseStore)
    const [pUpdate] = await logOf(leaseStore, 'renew-compact/p')
    expect(pUpdate).toMatch(new RegExp(`^MODIFIED ${pLast}<-`))
    expect(pLast).toBeLessThanOrEqual(compactedRv)
    // Every revision compaction keeps still shows both leases, p at the compacted revision as it was then.
    const listsKeepBoth = async (head: number) => {
      for (let rv = compactedRv; rv <= head; rv++)
        expect((await leasesAt('renew-compact', rv)).map((s) => s.split('@')[0])).toEqual([
          'p',
          'q',
        ])
      expect((await leasesAt('renew-compact', compactedRv))[0]).toBe(`p@${pLast}`)
    }
    const renewed = await renew('renew-compact', 'p', 3)
    await listsKeepBoth(renewed)
    const again = await renew('renew-compact', 'p', 4)
    await listsKeepBoth(again)
    // So p's update at or below the compacted revision stays: the next renewal is a row of its own,
    // which lags from the one after.
    const before = pUpdate!.split('<-')[1]
    expect(await logOf(leaseStore, 'renew-compact/p')).toEqual([
      `MODIFIED ${pLast}<-${before}`,
      `LAGGING ${renewed}<-${pLast}`,
    ])
    expect(renewed).toBeLessThan(again)
  })
})
