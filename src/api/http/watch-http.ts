import type { ApiBindings } from '../bindings'
import { patchGrantHeader } from '../../apis/patch-stream'
import type { KubeObject } from '../../apimachinery/types'
import { ApiError, badRequest } from '../../apimachinery/status'
import { apiVersionOf } from '../../apis/registry'
import type { ResourceDef } from '../../apis/resource-def'
import { storeFor } from '../../store-client/stores'
import { watchDefaultTimeoutSeconds, watchMaxBufferedBytes } from '../../config'
import { tableOf, wantsTable } from './table-negotiation'
import { queryFlag } from './query'

/** The store's watch URL for a request's namespace, selectors and resourceVersion. */
function storeWatchUrl(
  def: ResourceDef,
  namespace: string | undefined,
  q: URLSearchParams,
): string {
  const params = new URLSearchParams({
    resource: def.plural,
    kind: def.kind,
    apiVersion: apiVersionOf(def),
  })
  if (namespace) params.set('namespace', namespace)
  if (def.custom?.multiVersion) params.set('convert', 'true')
  for (const k of ['labelSelector', 'fieldSelector', 'resourceVersion']) {
    const v = q.get(k)
    if (v !== null) params.set(k, v)
  }
  if (queryFlag(q, 'allowWatchBookmarks')) params.set('allowWatchBookmarks', 'true')
  return `https://store/watch?${params}`
}

/**
 * `?watch=true`: a WebSocket upgrade is handed to the store as is (agents and controllers); any
 * other request gets kubectl's chunked stream of newline-delimited events, bridged from a
 * WebSocket to the store, with headers sent at once.
 */
export async function serveWatch(
  req: Request,
  env: ApiBindings,
  def: ResourceDef,
  namespace: string | undefined,
  q: URLSearchParams,
): Promise<Response> {
  const store = storeFor(env, def)
  const url = storeWatchUrl(def, namespace, q)
  if (req.headers.get('Upgrade')?.toLowerCase() === 'websocket') {
    // Only the API server grants a patch stream: a client's header naming one never reaches the store.
    const headers = new Headers(req.headers)
    headers.delete(patchGrantHeader)
    return store.fetch(new Request(url, { headers }))
  }
  const timeoutText = q.get('timeoutSeconds')
  const timeoutSeconds = timeoutText === null ? randomTimeout() : Number(timeoutText)
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds < 0)
    throw new ApiError(badRequest(`invalid timeoutSeconds: ${timeoutText}`))

  const upstream = await store.fetch(new Request(url, { headers: { Upgrade: 'websocket' } }))
  const ws = upstream.webSocket
  if (!ws) return upstream
  ws.accept()
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(
    undefined,
    new ByteLengthQueuingStrategy({ highWaterMark: watchMaxBufferedBytes }),
  )
  const writer = writable.getWriter()
  const encoder = new TextEncoder()
  const table = wantsTable(req.headers.get('Accept'))
  let closed = false
  const finish = () => {
    if (closed) return
    closed = true
    clearTimeout(timer)
    try {
      ws.close(1000, 'watch ended')
    } catch {
      /* already closed */
    }
    writer.close().catch(() => {})
  }
  const timer = setTimeout(finish, timeoutSeconds * 1000)
  ws.addEventListener('message', (event) => {
    if (closed) return
    const data =
      typeof event.data === 'string'
        ? event.data
        : new TextDecoder().decode(event.data as ArrayBuffer)
    const text = table
      ? data
          .split('\n')
          .map((line) => asTableEvent(def, line, q))
          .join('\n')
      : data
    // A watcher that cannot keep up is dropped; it resumes from its last resourceVersion.
    if ((writer.desiredSize ?? 0) <= 0) return finish()
    writer.write(encoder.encode(text + '\n')).catch(finish)
  })
  ws.addEventListener('close', finish)
  ws.addEventListener('error', finish)
  return new Response(readable, { status: 200, headers: streamingHeaders })
}

/** A compressed stream would hold events back until a compression block fills, so watches go out uncompressed. */
const streamingHeaders = {
  'Content-Type': 'application/json',
  'Content-Encoding': 'identity',
  'Cache-Control': 'no-cache, no-transform, private',
}

function randomTimeout(): number {
  const [min, max] = watchDefaultTimeoutSeconds
  return min + Math.floor(Math.random() * (max - min))
}

/** For `kubectl get -w`: each event's object becomes a one-row Table (bookmarks and errors pass as they are). */
function asTableEvent(def: ResourceDef, line: string, q: URLSearchParams): string {
  const event = JSON.parse(line) as { type: string; object: KubeObject }
  if (event.type === 'BOOKMARK' || event.type === 'ERROR') return line
  return JSON.stringify({
    type: event.type,
    object: tableOf(def, [event.object], q, { omitColumns: true }),
  })
}
