/**
 * Service-account token authentication kept in the isolate like the RBAC snapshot, so a request
 * with a token seen in the last `rbacRecheckMs` costs a map lookup: no signature check, no store
 * read. A token is trusted again only while its account (read from the store at most once per
 * rbacRecheckMs) still has the token's uid, and never past its expiry; a write to a service
 * account through this isolate drops the cache. So a deleted or recreated account stops accepting
 * its old tokens within rbacRecheckMs, and at once in this isolate.
 */
import type { ApiBindings } from '../bindings'
import { rbacRecheckMs } from '../../config'
import {
  verifyServiceAccountToken,
  type ServiceAccountClaims,
} from '../../apimachinery/service-account-token'
import { serviceAccountUserInfo } from './user'
import { type UserInfo } from '../../apimachinery/user-info'

interface Entry {
  user: UserInfo
  expiresAt: number
  checkedAt: number
}

const tokens = new Map<string, Entry>()
const maxEntries = 10_000

/** The user of a service-account token, or undefined when it is not valid now. */
export async function serviceAccountTokenUser(
  env: ApiBindings,
  adminToken: string,
  token: string,
  accountUid: (env: ApiBindings, namespace: string, name: string) => Promise<string | undefined>,
): Promise<UserInfo | undefined> {
  const now = Date.now()
  const hit = tokens.get(token)
  if (hit && now - hit.checkedAt < rbacRecheckMs && now < hit.expiresAt * 1000) return hit.user
  const claims: ServiceAccountClaims | undefined = await verifyServiceAccountToken(
    adminToken,
    token,
  )
  // A bound token dies with its service account: a deleted or recreated one no longer accepts it.
  if (!claims || (await accountUid(env, claims.namespace, claims.name)) !== claims.uid) {
    tokens.delete(token)
    return undefined
  }
  const user = serviceAccountUserInfo(claims)
  if (tokens.size >= maxEntries) tokens.clear()
  tokens.set(token, { user, expiresAt: claims.expiresAt, checkedAt: now })
  return user
}

/** Called after a write to a service account: the next request with any token checks it afresh. */
export function forgetServiceAccounts(): void {
  tokens.clear()
}
