import type { MiddlewareHandler } from 'hono'
import type { ApiBindings } from '../bindings'
import { minAdminTokenLength } from '../../config'
import { settingsOf } from '../../settings/settings'
import type { KubeObject } from '../../apimachinery/types'
import { failure, qualifiedResource } from '../../apimachinery/status'
import { sameSecret } from '../../apimachinery/secret-compare'
import { isServiceAccountToken } from '../../apimachinery/service-account-token'
import { findResource } from '../../apis/registry'
import { storeFor } from '../../store-client/stores'
import { parsedOf } from '../http/request-info'
import {
  attributesOf,
  isResourceRequest,
  type Attributes,
  type ResourceAttributes,
} from '../authorization/attributes'
import { authorizeRequest, forbiddenStatus } from '../authorization/authorize'
import { impersonatedUser, wantsImpersonation } from '../authorization/impersonation'
import { serviceAccountTokenUser } from './service-account-cache'
import { admitNode } from '../authorization/node-authorizer'
import { statusResponse } from '../http/respond'
import { clientCertUser } from './client-cert'
import { edgeClientCertUser } from './edge-client-cert'
import {
  afterRevocation,
  authenticateBootstrapToken,
  authenticateNodeToken,
  revokesNodeCredentials,
} from './token-lookup'
import { adminUser, anonymousUser, nodeOf, setRequestUser } from './user'
import { type UserInfo } from '../../apimachinery/user-info'

/** Paths kube-apiserver serves to anyone (system:public-info-viewer). */
const publicPaths = new Set(['/version', '/healthz', '/readyz', '/livez'])
/** What a server with no usable admin token still answers: its health, for load balancers and probes. */
const healthPaths = new Set(['/healthz', '/readyz', '/livez'])

/** Why the configured admin token can't be used, or undefined when it can. */
export function adminTokenProblem(token: string | undefined): string | undefined {
  if (!token)
    return `no ADMIN_TOKEN is configured: set one of at least ${minAdminTokenLength} characters with \`wrangler secret put ADMIN_TOKEN\` (with \`wrangler dev\`, in .dev.vars)`
  if (token.length < minAdminTokenLength)
    return `the configured ADMIN_TOKEN is shorter than ${minAdminTokenLength} characters: set a longer one with \`wrangler secret put ADMIN_TOKEN\``
  return undefined
}

/**
 * Bearer-token authentication and authorization. Every request but the public paths must carry
 * the admin token (`kubernetes-admin`, full access), a node credential (`system:node:<name>`,
 * authorized as the Node authorizer and NodeRestriction would), a bootstrap token (which may only
 * join a node), or a service-account token from `serviceaccounts/<name>/token` (authorized by
 * RBAC), or a client certificate the cluster CA issued (see client-cert.ts and edge-client-cert.ts). Impersonation headers switch the user once the caller is allowed to impersonate. Without a usable ADMIN_TOKEN the server fails closed: only the health paths answer,
 * unless EDGEPLANE_INSECURE_ANONYMOUS=true makes every request the admin's (local play only).
 * The user is recorded for the handlers (`requestUser`).
 */
export function bearerAuth(): MiddlewareHandler<{ Bindings: ApiBindings }> {
  return async function bearerAuth(c, next) {
    const req = c.req.raw
    const expected = c.env.ADMIN_TOKEN
    if (!expected && settingsOf(c.env).insecureAnonymous) {
      setRequestUser(req, adminUser)
      return next()
    }
    const problem = adminTokenProblem(expected)
    if (problem) {
      if (healthPaths.has(parsedOf(req).path)) {
        setRequestUser(req, anonymousUser)
        return next()
      }
      return statusResponse(
        failure(503, 'ServiceUnavailable', `edgeplane refuses to serve: ${problem}`),
      )
    }
    const isPublic = publicPaths.has(parsedOf(req).path)
    const header = c.req.header('Authorization') ?? ''
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : ''
    // As kube-apiserver, a verified client certificate is tried before any token; one that is
    // presented but refused leaves the request to a token, and is never taken for anonymous.
    const edgeCert = edgeClientCertUser(req, c.env)
    const certUser =
      (await clientCertUser(req, c.env)) ??
      (edgeCert && 'user' in edgeCert ? edgeCert.user : undefined)
    const certRefused = edgeCert !== undefined && 'refused' in edgeCert
    if (!token && !certUser && !certRefused && isPublic) {
      setRequestUser(req, anonymousUser)
      return next()
    }
    // A token that fails is refused on every path, public ones included: as upstream, bad
    // credentials are never taken for an anonymous request.
    const authenticated =
      certUser ?? (token ? await authenticate(c.env, expected!, token) : undefined)
    if (!authenticated) return c.json(failure(401, 'Unauthorized', 'Unauthorized'), 401)
    const user = wantsImpersonation(req.headers)
      ? await impersonatedUser(c.env, req.headers, authenticated)
      : authenticated
    setRequestUser(req, user)
    if (isPublic) return next()
    const attrs = attributesOf(req)
    for (const asked of [attrs, ...upgradeAttributes(req, attrs)]) {
      const decision = await authorizeRequest(c.env, user, asked)
      if (!decision.allowed) return statusResponse(forbiddenStatus(user, asked, decision.reason))
    }
    const node = nodeOf(user)
    if (node !== undefined && isResourceRequest(attrs)) {
      const denied = await admitNode(req, c.env, node, attrs)
      if (denied) return statusResponse(denied)
    }
    await next()
    if (revokesNodeCredentials(attrs) && c.res.status < 300)
      await afterRevocation(c.env, attrs, c.res)
  }
}

/**
 * Streams a WebSocket upgrade opens into a pod, by resource and subresource: upstream (1.35,
 * AuthorizePodWebsocketUpgradeCreatePermission) asks for `create` too.
 */
const upgradedStreams: ReadonlySet<string> = new Set(
  ['exec', 'attach', 'portforward'].map((sub) => `${qualifiedResource('', 'pods')}/${sub}`),
)

/** What a WebSocket upgrade into a pod must also be allowed: the same request as a `create`. */
function upgradeAttributes(req: Request, attrs: Attributes): ResourceAttributes[] {
  if (!isResourceRequest(attrs) || attrs.verb !== 'get' || !attrs.subresource) return []
  if (
    !upgradedStreams.has(
      `${qualifiedResource(attrs.group, attrs.resource)}/${attrs.subresource}`,
    ) ||
    req.headers.get('Upgrade')?.toLowerCase() !== 'websocket'
  )
    return []
  return [{ ...attrs, verb: 'create' }]
}

/** The user a bearer token stands for, or undefined when it is not valid (now). */
async function authenticate(
  env: ApiBindings,
  adminToken: string,
  token: string,
): Promise<UserInfo | undefined> {
  if (await sameSecret(token, adminToken)) return adminUser
  const node = await authenticateNodeToken(env, token)
  if (node) return node
  const bootstrap = await authenticateBootstrapToken(env, token)
  if (bootstrap) return bootstrap
  if (isServiceAccountToken(token))
    return serviceAccountTokenUser(env, adminToken, token, serviceAccountUid)
  return undefined
}

async function serviceAccountUid(
  env: ApiBindings,
  namespace: string,
  name: string,
): Promise<string | undefined> {
  const def = findResource('', 'v1', 'serviceaccounts')!
  const res = await storeFor(env, def).get({ def, namespace, name })
  if (!res.ok) return undefined
  const sa = JSON.parse(res.value) as KubeObject
  return sa.metadata.deletionTimestamp ? undefined : sa.metadata.uid
}
