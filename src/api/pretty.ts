/**
 * Indented JSON responses, as kube-apiserver's negotiation decides them: `?pretty=` parsed with
 * Go's strconv.ParseBool (a value it rejects is false), else on by default for curl, Wget and
 * browsers. Watches and other streams are left as they are.
 */
import type { MiddlewareHandler } from 'hono'
import { concatBytes } from '../service-client/body-limit'
import { queryFlag } from './query'

const parseBoolTrue = ['1', 't', 'T', 'TRUE', 'true', 'True']

/** A larger answer (a long list streamed page by page) goes out as it is rather than held whole. */
const maxPrettyBytes = 4 * 1024 * 1024

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
    if (res.status === 101 || !res.body || !(res.headers.get('Content-Type') ?? '').startsWith('application/json')) return
    const reader = res.body.getReader()
    const chunks: Uint8Array[] = []
    let size = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
      if (size > maxPrettyBytes) {
        c.res = new Response(resumed(chunks, reader), { status: res.status, headers: res.headers })
        return
      }
    }
    const text = new TextDecoder().decode(concatBytes(chunks, size))
    let body = text
    try {
      body = JSON.stringify(JSON.parse(text), null, 2)
    } catch {
      // not JSON after all: passed on unchanged
    }
    c.res = new Response(body, { status: res.status, headers: res.headers })
  }
}


/** The chunks already read, then the rest of the stream. */
function resumed(chunks: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(out) {
      const chunk = chunks.shift()
      if (chunk) return out.enqueue(chunk)
      const { done, value } = await reader.read()
      if (done) out.close()
      else out.enqueue(value)
    },
    cancel(reason) {
      return reader.cancel(reason)
    },
  })
}
