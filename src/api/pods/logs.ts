import type { ApiBindings } from '../bindings'
import type { KubeObject, StatusCause } from '../../apimachinery/types'
import type { LogOptions } from '../../agent-protocol/log-options'
import { ApiError, badRequest, invalid, unwrap } from '../../apimachinery/status'
import { findResource } from '../../apis/registry'
import { storeFor } from '../../store-client/stores'
import { gatewayFor, streamUrl } from '../../../durable-objects/node-gateway/client'
import { statusResponse } from '../http/respond'
import { queryFlag } from '../http/query'

/** Until the first log bytes, an error from the agent can still become the response's Status. */
const firstFrameWaitMs = 1_000
/** A log read without `follow` that goes quiet this long is over (its agent stopped answering). */
const idleTimeoutMs = 30_000
/** A reader further behind than this is cut off rather than buffered without end. */
const maxBufferedBytes = 16 * 1024 * 1024

export interface Pod extends KubeObject {
  spec?: {
    nodeName?: string
    containers?: { name: string }[]
    initContainers?: { name: string }[]
    ephemeralContainers?: { name: string }[]
  }
}

export async function readPod(env: ApiBindings, namespace: string, name: string): Promise<Pod> {
  const def = findResource('', 'v1', 'pods')!
  return JSON.parse(unwrap(await storeFor(env, def).get({ def, namespace, name }))) as Pod
}

/**
 * The container a request names, or the pod's default (annotation
 * `kubectl.kubernetes.io/default-container`, else the first); 400 as kube-apiserver for one it lacks.
 */
export function chooseContainer(pod: Pod, requested: string | null): string {
  const name = pod.metadata.name ?? ''
  const spec = pod.spec ?? {}
  const all = [
    ...(spec.containers ?? []),
    ...(spec.initContainers ?? []),
    ...(spec.ephemeralContainers ?? []),
  ].map((c) => c.name)
  if (requested) {
    if (!all.includes(requested))
      throw new ApiError(badRequest(`container ${requested} is not valid for pod ${name}`))
    return requested
  }
  const annotated = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container']
  if (annotated && all.includes(annotated)) return annotated
  const first = spec.containers?.[0]?.name
  if (!first) throw new ApiError(badRequest(`a container name must be specified for pod ${name}`))
  return first
}

function queryInt(q: URLSearchParams, key: string): number | undefined {
  const v = q.get(key)
  if (v === null || v === '') return undefined
  if (!/^-?\d+$/.test(v))
    throw new ApiError(
      badRequest(`invalid value for ${key}: strconv.ParseInt: parsing "${v}": invalid syntax`),
    )
  return Number(v)
}

/** PodLogOptions from the query, validated as ValidatePodLogOptions does. */
export function logOptions(q: URLSearchParams, pod: Pod, now = Date.now()): LogOptions {
  const name = pod.metadata.name ?? ''
  const opts: LogOptions = { container: chooseContainer(pod, q.get('container')) }
  const follow = queryFlag(q, 'follow')
  const previous = queryFlag(q, 'previous')
  const timestamps = queryFlag(q, 'timestamps')
  const tailLines = queryInt(q, 'tailLines')
  const limitBytes = queryInt(q, 'limitBytes')
  let sinceSeconds = queryInt(q, 'sinceSeconds')
  const sinceTime = q.get('sinceTime')
  const causes: StatusCause[] = []
  if (tailLines !== undefined && tailLines < 0)
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'tailLines',
      message: `Invalid value: ${tailLines}: must be greater than or equal to 0`,
    })
  if (limitBytes !== undefined && limitBytes < 1)
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'limitBytes',
      message: `Invalid value: ${limitBytes}: must be greater than 0`,
    })
  if (sinceSeconds !== undefined && sinceTime)
    causes.push({
      reason: 'FieldValueForbidden',
      field: '',
      message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
    })
  else if (sinceSeconds !== undefined && sinceSeconds < 1)
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'sinceSeconds',
      message: `Invalid value: ${sinceSeconds}: must be greater than 0`,
    })
  if (causes.length) throw new ApiError(invalid('', 'PodLogOptions', name, causes))
  if (sinceTime) {
    const t = Date.parse(sinceTime)
    if (Number.isNaN(t))
      throw new ApiError(
        badRequest(
          `invalid value for sinceTime: parsing time "${sinceTime}" as "2006-01-02T15:04:05Z07:00": cannot parse`,
        ),
      )
    // The runtime takes a duration; a time in the future leaves (almost) nothing to show.
    sinceSeconds = Math.max(1, Math.ceil((now - t) / 1000))
  }
  if (follow) opts.follow = true
  if (previous) opts.previous = true
  if (timestamps) opts.timestamps = true
  if (tailLines !== undefined) opts.tailLines = tailLines
  if (limitBytes !== undefined) opts.limitBytes = limitBytes
  if (sinceSeconds !== undefined) opts.sinceSeconds = sinceSeconds
  return opts
}

/** GET pods/{name}/log: the container's output, streamed from its node's agent through the tunnel. */
export async function servePodLogs(
  req: Request,
  env: ApiBindings,
  namespace: string,
  name: string,
): Promise<Response> {
  const pod = await readPod(env, namespace, name)
  const opts = logOptions(new URL(req.url).searchParams, pod)
  const node = pod.spec?.nodeName
  if (!node)
    throw new ApiError(
      badRequest(
        `container "${opts.container}" in pod "${name}" is waiting to start: ContainerCreating`,
      ),
    )
  const upstream = await gatewayFor(env, node).fetch(
    streamUrl(node, { op: 'logs', podUid: pod.metadata.uid ?? '', namespace, pod: name, opts }),
    { headers: { Upgrade: 'websocket' } },
  )
  const ws = upstream.webSocket
  if (!ws) return upstream
  return bridge(ws, opts)
}

/**
 * Turns the gateway's stream (binary log bytes, then a text `end`) into a chunked text/plain
 * response. The status waits for the first frame, briefly, so an agent's refusal (a container
 * that is not running, no previous instance) is answered as a 400 the way the kubelet does.
 */
async function bridge(ws: WebSocket, opts: LogOptions): Promise<Response> {
  // Binary messages arrive as Blobs by default under current compatibility dates.
  ws.binaryType = 'arraybuffer'
  ws.accept()
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(
    undefined,
    new ByteLengthQueuingStrategy({ highWaterMark: maxBufferedBytes }),
  )
  const writer = writable.getWriter()
  let decide: (outcome: { error?: string }) => void = () => {}
  const decided = new Promise<{ error?: string }>((resolve) => (decide = resolve))
  let started = false
  let closed = false
  let left = opts.limitBytes ?? Infinity
  let timer: ReturnType<typeof setTimeout> | undefined
  const finish = () => {
    if (closed) return
    closed = true
    if (timer !== undefined) clearTimeout(timer)
    decide({})
    try {
      ws.close(1000, 'done')
    } catch {
      /* already closed */
    }
    writer.close().catch(() => {})
  }
  const arm = () => {
    if (timer !== undefined) clearTimeout(timer)
    if (!started) {
      timer = setTimeout(() => {
        started = true
        decide({})
        arm()
      }, firstFrameWaitMs)
    } else if (!opts.follow) timer = setTimeout(finish, idleTimeoutMs)
  }
  arm()
  ws.addEventListener('message', (event) => {
    if (closed) return
    if (typeof event.data === 'string') {
      const end = parseEnd(event.data)
      if (!started && end.error) {
        started = true
        decide({ error: end.error })
      }
      return finish()
    }
    started = true
    decide({})
    arm()
    let bytes = new Uint8Array(event.data as ArrayBuffer)
    if (bytes.byteLength > left) bytes = bytes.subarray(0, left)
    left -= bytes.byteLength
    if ((writer.desiredSize ?? 0) <= 0) return finish()
    if (bytes.byteLength) writer.write(bytes).catch(finish)
    if (left <= 0) finish()
  })
  ws.addEventListener('close', finish)
  ws.addEventListener('error', finish)
  // The reader went away: closing the socket makes the gateway cancel the stream at the agent.
  writer.closed.catch(finish)
  const outcome = await decided
  if (outcome.error !== undefined) return statusResponse(badRequest(outcome.error))
  return new Response(readable, { status: 200, headers: streamingHeaders })
}

function parseEnd(text: string): { error?: string } {
  try {
    const v = JSON.parse(text) as { error?: unknown }
    return typeof v.error === 'string' ? { error: v.error } : {}
  } catch {
    return {}
  }
}

/** Uncompressed, as watches: a compressor would hold lines back until its block fills. */
const streamingHeaders = {
  'Content-Type': 'text/plain',
  'Content-Encoding': 'identity',
  'Cache-Control': 'no-cache, no-transform, private',
}
