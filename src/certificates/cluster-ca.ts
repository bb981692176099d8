import type { Variables } from '../settings/variables'
import { loadAuthority, type Authority } from '../apimachinery/x509/authority'

let cached: { cert: string; key: string; authority: Promise<Authority> } | undefined

/**
 * The cluster CA of the Worker's secret bindings CLUSTER_CA_CERT and CLUSTER_CA_KEY, loaded once
 * per isolate (again when the bindings change); undefined when either is unset.
 */
export function clusterAuthority(
  env: Pick<Variables, 'CLUSTER_CA_CERT' | 'CLUSTER_CA_KEY'>,
): Promise<Authority | undefined> {
  const cert = env.CLUSTER_CA_CERT
  const key = env.CLUSTER_CA_KEY
  if (!cert || !key) return Promise.resolve(undefined)
  if (!cached || cached.cert !== cert || cached.key !== key) {
    const authority = loadAuthority(cert, key)
    cached = { cert, key, authority }
    authority.catch(() => (cached = undefined))
  }
  return cached.authority
}
