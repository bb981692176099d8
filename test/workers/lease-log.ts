import { env, runInDurableObject } from 'cloudflare:test'
import { api } from './helpers'
import { storeOf } from './rows-written'
import type { KindStore } from '../../durable-objects/kind-store/kind-store'
import { findResource } from '../../src/apis/registry'
import { storeFor } from '../../src/store-client/stores'

/** The leases store: its kind compacts superseded updates in place (renewals). */
export const leaseStore = 'coordination.k8s.io/leases'

export const leases = (ns: string) => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`

/** A renewTime `s` seconds from now (MicroTime). */
export const renewedIn = (s: number) =>
  new Date(Date.now() + s * 1000).toISOString().replace('Z', '000Z')

export async function createLease(ns: string, name: string): Promise<number> {
  const res = await api('POST', leases(ns), {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: renewedIn(0) },
  })
  if (res.status !== 201) throw new Error(`creating lease ${name} answered ${res.status}`)
  return Number(res.json.metadata.resourceVersion)
}

/** A renewal as a node makes it (a merge patch of spec.renewTime); its resourceVersion. */
export async function renew(ns: string, name: string, s = 1): Promise<number> {
  const res = await api(
    'PATCH',
    `${leases(ns)}/${name}`,
    { spec: { renewTime: renewedIn(s) } },
    'application/merge-patch+json',
  )
  if (res.status !== 200) throw new Error(`renewing lease ${name} answered ${res.status}`)
  return Number(res.json.metadata.resourceVersion)
}

/** The log rows of one object of the store `name`, oldest first, as `TYPE rv<-prev_rv`. */
export const logOf = (name: string, key: string) =>
  runInDurableObject(storeOf(name), (_i, state) =>
    state.storage.sql
      .exec<{ rv: number; type: string; prev_rv: number }>(
        'SELECT rv, type, prev_rv FROM events WHERE key = ? ORDER BY rv',
        key,
      )
      .toArray()
      .map((r) => `${r.type} ${r.rv}<-${r.prev_rv}`),
  )

export const infoOf = (name: string) =>
  runInDurableObject(storeOf(name), (s: KindStore) => s.info())

/** The leases store as controller caches read it. */
export const leasesStore = () => storeFor(env, findResource('coordination.k8s.io', 'v1', 'leases')!)

/** The names a list of `ns`'s leases at exactly `rv` shows, with each one's resourceVersion. */
export async function leasesAt(ns: string, rv: number, limit?: number): Promise<string[]> {
  const shown: string[] = []
  let page = await api(
    'GET',
    `${leases(ns)}?resourceVersion=${rv}&resourceVersionMatch=Exact${limit ? `&limit=${limit}` : ''}`,
  )
  for (;;) {
    if (page.status !== 200) throw new Error(`list at ${rv} answered ${page.status}`)
    for (const o of page.json.items) shown.push(`${o.metadata.name}@${o.metadata.resourceVersion}`)
    const next = page.json.metadata.continue
    if (!next) return shown
    page = await api('GET', `${leases(ns)}?limit=${limit}&continue=${next}`)
  }
}
