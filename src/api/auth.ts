import type { MiddlewareHandler } from 'hono'
import type { Env } from '../env'
import { failure } from '../apimachinery/status'
import { isNodeToken, verifyNodeToken } from '../apimachinery/node-token'
import { authorizeNode } from './node-authorizer'
import { statusResponse } from './respond'

/** Paths kube-apiserver serves to anyone (system:public-info-viewer). */
const publicPaths = new Set(['/version', '/healthz', '/readyz', '/livez'])

/**
 * Bearer-token authentication: with ADMIN_TOKEN configured, every other request must carry it
 * (full access) or a node token minted from it (`system:node:<name>`, authorized as the Node
 * authorizer and NodeRestriction would).
 */
export function bearerAuth(): MiddlewareHandler<{ Bindings: Env }> {
  return async function bearerAuth(c, next) {
    const expected = c.env.ADMIN_TOKEN
    if (!expected) return next()
    const isPublic = publicPaths.has(c.req.path)
    const header = c.req.header('Authorization') ?? ''
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : ''
    if (!token && isPublic) return next()
    if (token && timingSafeEqual(token, expected)) return next()
    const node = token && isNodeToken(token) ? await verifyNodeToken(expected, token) : undefined
    // A token that fails is refused on every path, public ones included: as upstream, bad
    // credentials are never taken for an anonymous request.
    if (node === undefined) return c.json(failure(401, 'Unauthorized', 'Unauthorized'), 401)
    if (isPublic) return next()
    const denied = await authorizeNode(c.req.raw, c.env, node)
    if (denied) return statusResponse(denied)
    return next()
  }
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}
