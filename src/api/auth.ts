import type { MiddlewareHandler } from 'hono'
import type { Env } from '../env'
import { failure } from '../apimachinery/status'

/** Paths kube-apiserver serves to anyone (system:public-info-viewer). */
const publicPaths = new Set(['/version', '/healthz', '/readyz', '/livez'])

/** Bearer-token authentication: with ADMIN_TOKEN configured, every other request must carry it. */
export function bearerAuth(): MiddlewareHandler<{ Bindings: Env }> {
  return async function bearerAuth(c, next) {
    const expected = c.env.ADMIN_TOKEN
    if (!expected || publicPaths.has(c.req.path)) return next()
    const header = c.req.header('Authorization') ?? ''
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : ''
    if (!token || !timingSafeEqual(token, expected)) {
      return c.json(failure(401, 'Unauthorized', 'Unauthorized'), 401)
    }
    return next()
  }
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}
