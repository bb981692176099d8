/**
 * JSON bodies as kube-apiserver's serializer writes them. Indented when its negotiation asks for
 * it: `?pretty=` parsed with Go's strconv.ParseBool (a value it rejects is false), else on by
 * default for curl, Wget and browsers; indented bodies end at their closing brace, as
 * json.MarshalIndent writes them. Compact bodies end with the newline json.Encoder adds. Watches,
 * other streams and the bodies a proxied pod or service answers with are left as they are.
 */
import type { MiddlewareHandler } from 'hono'
import { concatBytes } from '../../service-client/body-limit'
import { queryFlag } from './query'
import { isFramedJson } from './respond'
import { parsedOf } from './request-info'
import { passesBodyThrough } from '../core-subresources'

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

/**
 * Re-indents a JSON answer (two spaces, as Go's json.MarshalIndent) when the request wants it, and
 * otherwise ends one that a handler wrote without it with the encoder's newline.
 */
export function prettyJson(): MiddlewareHandler {
  return async (c, next) => {
    await next()
    const req = c.req.raw
    if (queryFlag(new URL(req.url).searchParams, 'watch') || proxied(req)) return
    const res = c.res
    if (
      res.status === 101 ||
      !res.body ||
      !(res.headers.get('Content-Type') ?? '').startsWith('application/json')
    )
      return
    const pretty = wantsPretty(req)
    const framed = isFramedJson(res) || writtenRaw(new URL(req.url).pathname)
    if (!pretty && framed) return
    const reader = res.body.getReader()
    const chunks: Uint8Array[] = []
    let size = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
      if (size > maxPrettyBytes) {
        const rest = resumed(chunks, reader)
        c.res = new Response(framed ? rest : rest.pipeThrough(endingWithNewline()), {
          status: res.status,
          headers: res.headers,
        })
        return
      }
    }
    const bytes = concatBytes(chunks, size)
    const body = pretty
      ? indented(new TextDecoder().decode(bytes))
      : size === 0 || bytes[size - 1] === 0x0a
        ? bytes
        : concatBytes([bytes, newline], size + 1)
    c.res = new Response(body, { status: res.status, headers: res.headers })
  }
}

const newline = new Uint8Array([0x0a])

/** A pod's or service's proxy answers with the backend's own body, passed on as it is. */
function proxied(req: Request): boolean {
  try {
    return passesBodyThrough(parsedOf(req).info)
  } catch {
    return false
  }
}

/** Bodies kube-apiserver writes as raw JSON rather than through its encoder: no newline follows them. */
function writtenRaw(path: string): boolean {
  return path === '/version' || path === '/openapi/v2' || path.startsWith('/openapi/v3')
}

function indented(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    // not JSON after all: passed on unchanged
    return text
  }
}

/** The stream as it is, with a newline after its last byte unless that byte is one. */
function endingWithNewline(): TransformStream<Uint8Array, Uint8Array> {
  let last = 0
  return new TransformStream({
    transform(chunk, out) {
      if (chunk.byteLength) last = chunk[chunk.byteLength - 1]!
      out.enqueue(chunk)
    },
    flush(out) {
      if (last !== 0x0a) out.enqueue(newline)
    },
  })
}

/** The chunks already read, then the rest of the stream. */
function resumed(
  chunks: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream<Uint8Array> {
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
