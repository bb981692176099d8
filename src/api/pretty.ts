/**
 * Indented JSON responses, as kube-apiserver's negotiation decides them: `?pretty=` parsed with
 * Go's strconv.ParseBool (a value it rejects is false), else on by default for curl, Wget and
 * browsers. Watches and other streams are left as they are.
 */
import type { MiddlewareHandler } from 'hono'
import { queryFlag } from './query'

const parseBoolTrue = ['1', 't', 'T', 'TRUE', 'true', 'True']

export function wantsPretty(req: Request): boolean {
  const q = new URL(req.url).searchParams
  const pretty = q.get('pretty')
  if (pretty) return parseBoolTrue.includes(pretty)
  const agent = req.headers.get('User-Agent') ?? ''
  return agent.startsWith('curl') || agent.startsWith('Wget') || agent.startsWith('Mozilla/5.0')
}

/** Re-indents a JSON answer (two spaces, as Go's json.MarshalIndent) when the request wants it. */
export function prettyJson(): MiddlewareHandler {
  return async (c, next) => {
    await next()
    const req = c.req.raw
    if (!wantsPretty(req) || queryFlag(new URL(req.url).searchParams, 'watch')) return
    const res = c.res
    if (res.status === 101 || !(res.headers.get('Content-Type') ?? '').startsWith('application/json')) return
    const text = await res.text()
    let body = text
    try {
      body = JSON.stringify(JSON.parse(text), null, 2)
    } catch {
      // not JSON after all: passed on unchanged
    }
    c.res = new Response(body, { status: res.status, headers: res.headers })
  }
}
