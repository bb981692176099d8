/**
 * User impersonation (`kubectl --as`, `--as-group`, `--as-uid`), as kube-apiserver's
 * WithImpersonation filter: each requested identity is authorized as the `impersonate` verb on
 * users, groups, serviceaccounts, uids or userextras/<key>, then the request goes on as the
 * impersonated user.
 */
import type { StoreBindings } from '../../store-client/bindings'
import { ApiError, badRequest } from '../../apimachinery/status'
import type { ResourceAttributes } from './attributes'
import { authorizeRequest, forbiddenStatus } from './authorize'
import { authenticated } from '../authentication/user'
import { type UserInfo } from '../../apimachinery/user-info'
import { serviceAccountGroups } from '../../apimachinery/service-account-token'

const userHeader = 'Impersonate-User'
const groupHeader = 'Impersonate-Group'
const uidHeader = 'Impersonate-Uid'
const extraPrefix = 'impersonate-extra-'
const serviceAccountPrefix = 'system:serviceaccount:'

/** Whether the request asks to act as someone else. */
export function wantsImpersonation(headers: Headers): boolean {
  for (const name of headers.keys()) if (name.startsWith('impersonate-')) return true
  return false
}

/** The user the request acts as; throws a 400 or 403 Status when it may not. */
export async function impersonatedUser(
  env: StoreBindings,
  headers: Headers,
  requestor: UserInfo,
): Promise<UserInfo> {
  const username = headers.get(userHeader) ?? ''
  // Several header lines arrive joined by ", ".
  const groups = headers.has(groupHeader) ? headers.get(groupHeader)!.split(', ') : []
  const uid = headers.get(uidHeader) ?? ''
  const extra: Record<string, string[]> = {}
  for (const [name, value] of headers) {
    if (!name.startsWith(extraPrefix)) continue
    let key: string
    try {
      key = decodeURIComponent(name.slice(extraPrefix.length))
    } catch {
      throw new ApiError(badRequest(`invalid ${name} header: its key is not percent-encoded`))
    }
    extra[key] = value.split(', ')
  }
  if (!username) {
    const asked = [
      ...(groups.length ? ['groups'] : []),
      ...(uid ? ['uid'] : []),
      ...(Object.keys(extra).length ? ['extra'] : []),
    ]
    throw new ApiError(badRequest(`requested [${asked.join(' ')}] without impersonating a user`))
  }
  const checks: ResourceAttributes[] = []
  const user: UserInfo = { username, groups: [] }
  if (username.startsWith(serviceAccountPrefix) && username.split(':').length === 4) {
    const [, , namespace, name] = username.split(':') as [string, string, string, string]
    checks.push({ verb: 'impersonate', group: '', resource: 'serviceaccounts', namespace, name })
    if (!groups.length) user.groups.push(...serviceAccountGroups(namespace))
  } else {
    checks.push({ verb: 'impersonate', group: '', resource: 'users', name: username })
  }
  for (const g of groups) {
    checks.push({ verb: 'impersonate', group: '', resource: 'groups', name: g })
    user.groups.push(g)
  }
  for (const [key, values] of Object.entries(extra)) {
    for (const v of values)
      checks.push({
        verb: 'impersonate',
        group: 'authentication.k8s.io',
        resource: 'userextras',
        subresource: key,
        name: v,
      })
  }
  if (uid) {
    checks.push({
      verb: 'impersonate',
      group: 'authentication.k8s.io',
      resource: 'uids',
      name: uid,
    })
    user.uid = uid
  }
  for (const attrs of checks) {
    const decision = await authorizeRequest(env, requestor, attrs)
    if (!decision.allowed) throw new ApiError(forbiddenStatus(requestor, attrs, decision.reason))
  }
  if (username === 'system:anonymous') {
    if (!user.groups.includes('system:unauthenticated')) user.groups.push('system:unauthenticated')
  } else if (
    !user.groups.includes(authenticated) &&
    !user.groups.includes('system:unauthenticated')
  ) {
    user.groups.push(authenticated)
  }
  if (Object.keys(extra).length) user.extra = extra
  return user
}
