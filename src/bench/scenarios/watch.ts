import WebSocket from 'ws'
import type { HttpClient } from '../http-client'
import { configMapJson, objectName } from '../payload'
import { progress } from '../progress'
import { percentiles, type Percentiles } from '../stats'
import { sleep } from '../wait'
import { expectStatus } from './series'

export interface WatchOptions {
  url: string
  ca: string
  token: string
  namespace: string
  watchers: number
  writes: number
  timeLimitMs: number
}

export interface WatchResult {
  watchers: number
  writes: number
  writesPerSecond: number
  /** Write response received → event received, 0 when the event came first (that is the figure). */
  ackToEvent: Percentiles
  /** The same without the floor at 0: negative when the event arrived before the write's response. */
  ackToEventSigned: Percentiles
  /** Write sent → event received. */
  sendToEvent: Percentiles
  /** Share of deliveries that arrived before the write's own response. */
  beforeAck: number
  delivered: number
  lost: number
}

const OPEN_TIMEOUT_MS = 15_000
const DRAIN_TIMEOUT_MS = 10_000

/**
 * N WebSocket watchers on one namespace, then sequential creates there; for every write and every
 * watcher the client records when the write was sent, acknowledged, and its event received.
 */
export async function watchLatency(client: HttpClient, o: WatchOptions): Promise<WatchResult> {
  const listed = await client.expectOk('GET', `/api/v1/namespaces/${o.namespace}/configmaps`)
  const rv = (JSON.parse(listed.body) as { metadata: { resourceVersion: string } }).metadata
    .resourceVersion
  const received = Array.from({ length: o.watchers }, () =>
    new Float64Array(o.writes).fill(Number.NaN),
  )
  const prefix = 'w'
  let pending = o.watchers * o.writes
  const sockets: WebSocket[] = []
  try {
    progress(`  watch: opening ${o.watchers} watchers`)
    await Promise.all(
      received.map(async (times) => {
        const ws = await openWatch(
          `${o.url.replace(/^https:/, 'wss:')}/api/v1/namespaces/${o.namespace}/configmaps?watch=true&resourceVersion=${rv}`,
          o,
        )
        sockets.push(ws)
        ws.on('message', (data: WebSocket.RawData) => {
          const t = performance.now()
          for (const line of data.toString().split('\n')) {
            if (!line) continue
            const event = JSON.parse(line) as {
              type: string
              object?: { metadata?: { name?: string } }
            }
            const name = event.object?.metadata?.name
            if (event.type !== 'ADDED' || !name?.startsWith(`${prefix}-`)) continue
            const k = Number(name.slice(prefix.length + 1))
            if (k >= 0 && k < times.length && Number.isNaN(times[k]!)) {
              times[k] = t
              pending--
            }
          }
        })
      }),
    )

    const sent = new Float64Array(o.writes)
    const acked = new Float64Array(o.writes)
    const start = performance.now()
    let done = 0
    for (; done < o.writes && performance.now() - start < o.timeLimitMs; done++) {
      const name = objectName(prefix, done)
      sent[done] = performance.now()
      const res = await client.request(
        'POST',
        `/api/v1/namespaces/${o.namespace}/configmaps`,
        configMapJson(name, o.namespace),
      )
      acked[done] = performance.now()
      expectStatus(res, 201)
    }
    const writesPerSecond = (done * 1000) / (performance.now() - start)
    const missingFromUnsent = o.watchers * (o.writes - done)
    const drainUntil = performance.now() + DRAIN_TIMEOUT_MS
    while (pending > missingFromUnsent && performance.now() < drainUntil) await sleep(20)

    const ack: number[] = []
    const send: number[] = []
    for (const times of received) {
      for (let k = 0; k < done; k++) {
        const t = times[k]!
        if (Number.isNaN(t)) continue
        ack.push(t - acked[k]!)
        send.push(t - sent[k]!)
      }
    }
    const result: WatchResult = {
      watchers: o.watchers,
      writes: done,
      writesPerSecond,
      ackToEvent: percentiles(ack.map((v) => Math.max(0, v))),
      ackToEventSigned: percentiles(ack),
      sendToEvent: percentiles(send),
      beforeAck: ack.length ? ack.filter((v) => v < 0).length / ack.length : Number.NaN,
      delivered: ack.length,
      lost: o.watchers * done - ack.length,
    }
    progress(
      `  watch: ${o.watchers} watchers × ${done} writes (${writesPerSecond.toFixed(0)} writes/s): ack→event p99 ${result.ackToEvent.p99.toFixed(1)} ms, ` +
        `send→event p50 ${result.sendToEvent.p50.toFixed(1)} / p99 ${result.sendToEvent.p99.toFixed(1)} ms, ` +
        `${(result.beforeAck * 100).toFixed(0)} % before the ack, ${result.lost} lost`,
    )
    return result
  } finally {
    for (const ws of sockets) ws.terminate()
  }
}

export function openWatch(url: string, o: { ca: string; token: string }): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      ca: o.ca,
      headers: { Authorization: `Bearer ${o.token}` },
      perMessageDeflate: false,
      handshakeTimeout: OPEN_TIMEOUT_MS,
    })
    ws.once('open', () => {
      ws.off('error', reject)
      // A watcher failing later shows up as lost events, not as an unhandled error.
      ws.on('error', () => {})
      resolve(ws)
    })
    ws.once('error', reject)
    ws.once('unexpected-response', (_req, res) => {
      ws.terminate()
      reject(new Error(`watch upgrade answered ${res.statusCode}`))
    })
  })
}
