import type { MiddlewareHandler } from 'hono'
import type { Env } from '../env'
import type { KubeObject } from '../apimachinery/types'
import { failure } from '../apimachinery/status'
import { isNodeToken, verifyNodeToken } from '../apimachinery/node-token'
import { isServiceAccountToken } from '../apimachinery/service-account-token'
import { findResource } from '../apis/registry'
import { storeFor } from '../client/stores'
import { attributesOf, isResourceRequest } from './authorizer-attributes'
import { authorizeRequest, forbiddenStatus } from './authorize'
import { impersonatedUser, wantsImpersonation } from './impersonation'
import { serviceAccountTokenUser } from './service-account-cache'
import { admitNode } from './node-authorizer'
import { statusResponse } from './respond'
import { adminUser, anonymousUser, nodeOf, nodeUserInfo, setRequestUser, type UserInfo } from './user'

/** Paths kube-apiserver serves to anyone (system:public-info-viewer). */
const publicPaths = new Set(['/version', '/healthz', '/readyz', '/livez'])

/**
 * Bearer-token authentication and authorization. With ADMIN_TOKEN configured, every other request
 * must carry it (`kubernetes-admin`, full access), a node token minted from it
 * (`system:node:<name>`, authorized as the Node authorizer and NodeRestriction would), or a
 * service-account token from `serviceaccounts/<name>/token` (authorized by RBAC). Impersonation
 * headers switch the user once the caller is allowed to impersonate. Without ADMIN_TOKEN every request is the admin's. The user is recorded
 * for the handlers (`requestUser`).
 */
export function bearerAuth(): MiddlewareHandler<{ Bindings: Env }> {
  return async function bearerAuth(c, next) {
    const req = c.req.raw
    const expected = c.env.ADMIN_TOKEN
    if (!expected) {
      setRequestUser(req, adminUser)
      return next()
    }
    const isPublic = publicPaths.has(c.req.path)
    const header = c.req.header('Authorization') ?? ''
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : ''
    if (!token && isPublic) {
      setRequestUser(req, anonymousUser)
      return next()
    }
    // A token that fails is refused on every path, public ones included: as upstream, bad
    // credentials are never taken for an anonymous request.
    const authenticated = token ? await authenticate(c.env, expected, token) : undefined
    if (!authenticated) return c.json(failure(401, 'Unauthorized', 'Unauthorized'), 401)
    const user = wantsImpersonation(req.headers) ? await impersonatedUser(c.env, req.headers, authenticated) : authenticated
    setRequestUser(req, user)
    if (isPublic) return next()
    const attrs = attributesOf(req)
    const decision = await authorizeRequest(c.env, user, attrs)
    if (!decision.allowed) return statusResponse(forbiddenStatus(user, attrs, decision.reason))
    const node = nodeOf(user)
    if (node !== undefined && isResourceRequest(attrs)) {
      const denied = await admitNode(req, c.env, node, attrs)
      if (denied) return statusResponse(denied)
    }
    return next()
  }
}

/** The user a bearer token stands for, or undefined when it is not valid (now). */
async function authenticate(env: Env, adminToken: string, token: string): Promise<UserInfo | undefined> {
  if (timingSafeEqual(token, adminToken)) return adminUser
  if (isNodeToken(token)) {
    const node = await verifyNodeToken(adminToken, token)
    return node === undefined ? undefined : nodeUserInfo(node)
  }
  if (isServiceAccountToken(token)) return serviceAccountTokenUser(env, adminToken, token, serviceAccountUid)
  return undefined
}

async function serviceAccountUid(env: Env, namespace: string, name: string): Promise<string | undefined> {
  const def = findResource('', 'v1', 'serviceaccounts')!
  const res = await storeFor(env, def).get({ def, namespace, name })
  if (!res.ok) return undefined
  const sa = JSON.parse(res.value) as KubeObject
  return sa.metadata.deletionTimestamp ? undefined : sa.metadata.uid
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}
