import type { ServiceAccountClaims } from '../../apimachinery/service-account-token'
import { serviceAccountIdentity } from '../../apimachinery/service-account-token'
import { nodeUser } from '../../apimachinery/node-token'

import { mastersGroup, type UserInfo } from '../../apimachinery/user-info'
import { perRequest } from '../http/request-state'

export type { UserInfo }
export { mastersGroup }

export const authenticated = 'system:authenticated'

/** The admin token's user, as kubeadm's admin kubeconfig names it. */
export const adminUser: UserInfo = {
  username: 'kubernetes-admin',
  groups: [mastersGroup, authenticated],
}

export const anonymousUser: UserInfo = {
  username: 'system:anonymous',
  groups: ['system:unauthenticated'],
}

export function nodeUserInfo(node: string): UserInfo {
  return { username: nodeUser(node), groups: ['system:nodes', authenticated] }
}

/** The node a user is the credentials of (`system:node:<name>` in `system:nodes`), if any. */
export function nodeOf(user: UserInfo): string | undefined {
  const prefix = 'system:node:'
  if (!user.username.startsWith(prefix) || !user.groups.includes('system:nodes')) return undefined
  return user.username.slice(prefix.length) || undefined
}

/** A service-account token's user: the account's uid, its groups, and the token id as credential id. */
export function serviceAccountUserInfo(claims: ServiceAccountClaims): UserInfo {
  const account = serviceAccountIdentity(claims.namespace, claims.name)
  return {
    username: account.username,
    uid: claims.uid,
    groups: [...account.groups, authenticated],
    extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${claims.id}`] },
  }
}

const users = perRequest<UserInfo>()

/** Records the user the authentication middleware found for a request. */
export function setRequestUser(req: Request, user: UserInfo): void {
  users.set(req, user)
}

/** The user a request authenticated as; anonymous when the middleware recorded none. */
export function requestUser(req: Request): UserInfo {
  return users.get(req) ?? anonymousUser
}
