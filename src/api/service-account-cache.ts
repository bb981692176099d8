/**
 * The uids of service accounts that tokens were recently checked against, kept in the isolate
 * like the RBAC snapshot so a service-account request costs no store read: an entry is trusted
 * for `rbacRecheckMs`, a token naming another uid (or an account not cached) reads the store, and
 * a write to a service account through this isolate drops the cache. So a deleted or recreated
 * account stops accepting its old tokens within rbacRecheckMs, and at once in this isolate.
 */
import type { Env } from '../env'
import { rbacRecheckMs } from '../config'

const cache = new Map<string, { uid: string; at: number }>()
const maxEntries = 10_000

export async function cachedServiceAccountUid(
  env: Env,
  namespace: string,
  name: string,
  expectedUid: string,
  lookup: (env: Env, namespace: string, name: string) => Promise<string | undefined>,
): Promise<string | undefined> {
  const key = `${namespace}/${name}`
  const hit = cache.get(key)
  if (hit && hit.uid === expectedUid && Date.now() - hit.at < rbacRecheckMs) return hit.uid
  const uid = await lookup(env, namespace, name)
  if (uid === undefined) cache.delete(key)
  else {
    if (cache.size >= maxEntries) cache.clear()
    cache.set(key, { uid, at: Date.now() })
  }
  return uid
}

/** Called after a write to a service account: the next token check reads the store. */
export function forgetServiceAccounts(): void {
  cache.clear()
}
