import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { WebSocketServer, type WebSocket } from 'ws'
import type { KubeObject } from '../../../src/apimachinery/types'
import { ApiClient } from '../../../src/agent/api-client'
import { createLogger } from '../../../src/agent/log'
import { ListWatch, parseWatchMessage } from '../../../src/agent/pod-watch'
import { newPod, waitFor } from '../../helpers'

const quiet = createLogger({ write: () => {} })

/** A stand-in API: scripted list answers and a WebSocket per watch, with every request recorded. */
class FakeApi {
  readonly server: Server
  readonly wss = new WebSocketServer({ noServer: true })
  readonly lists: string[] = []
  readonly watches: { rv: string; params: URLSearchParams; socket: WebSocket }[] = []
  listAnswers: { items: KubeObject[]; rv: string }[] = []
  /** the next watch upgrade is answered with this status instead */
  failNextWatchWith: number | undefined

  constructor() {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      this.lists.push(url.searchParams.toString())
      const answer = this.listAnswers.shift() ?? { items: [], rv: '0' }
      res.setHeader('Content-Type', 'application/json')
      res.end(
        JSON.stringify({
          kind: 'PodList',
          apiVersion: 'v1',
          metadata: { resourceVersion: answer.rv },
          items: answer.items,
        }),
      )
    })
    this.server.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://x')
      if (this.failNextWatchWith) {
        socket.end(
          `HTTP/1.1 ${this.failNextWatchWith} Gone\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
        )
        this.failNextWatchWith = undefined
        return
      }
      this.wss.handleUpgrade(req, socket, head, (ws) =>
        this.watches.push({
          rv: url.searchParams.get('resourceVersion') ?? '',
          params: url.searchParams,
          socket: ws,
        }),
      )
    })
  }

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r))
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  close(): void {
    for (const c of this.wss.clients) c.terminate()
    this.server.closeAllConnections()
    this.server.close()
  }
}

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

async function setup() {
  const fake = new FakeApi()
  const server = await fake.listen()
  const api = new ApiClient({ server })
  const log: string[] = []
  const watch = new ListWatch(
    api,
    {
      path: '/api/v1/pods',
      params: { fieldSelector: 'spec.nodeName=n1' },
      backoff: { initialMs: 10, maxMs: 40, factor: 2, jitter: 0 },
    },
    {
      replace: (items, rv) =>
        log.push(`replace ${items.map((i) => i.metadata.name).join(',')} @${rv}`),
      event: (type, obj) =>
        log.push(`${type} ${obj.metadata.name} @${obj.metadata.resourceVersion}`),
    },
    quiet,
  )
  cleanups.push(() => {
    watch.stop()
    api.close()
    fake.close()
  })
  return { fake, watch, log }
}

const send = (ws: WebSocket, ...events: unknown[]) =>
  ws.send(events.map((e) => JSON.stringify(e)).join('\n'))

describe('ListWatch', () => {
  it('lists, then watches from the list resourceVersion with the selector and bookmarks', async () => {
    const { fake, watch, log } = await setup()
    fake.listAnswers = [{ items: [newPod('a', { metadata: { resourceVersion: '5' } })], rv: '7' }]
    watch.start()
    const w = await waitFor(() => fake.watches[0], { what: 'a watch', timeoutMs: 3_000 })
    expect(fake.lists).toEqual(['fieldSelector=spec.nodeName%3Dn1'])
    expect(w.rv).toBe('7')
    expect(Object.fromEntries(w.params)).toEqual({
      fieldSelector: 'spec.nodeName=n1',
      watch: 'true',
      allowWatchBookmarks: 'true',
      resourceVersion: '7',
    })
    send(
      w.socket,
      { type: 'ADDED', object: newPod('b', { metadata: { resourceVersion: '8' } }) },
      { type: 'MODIFIED', object: newPod('a', { metadata: { resourceVersion: '9' } }) },
    )
    send(w.socket, {
      type: 'DELETED',
      object: newPod('b', { metadata: { resourceVersion: '10' } }),
    })
    await waitFor(() => log.length === 4, { what: 'three events', timeoutMs: 3_000 })
    expect(log).toEqual(['replace a @7', 'ADDED b @8', 'MODIFIED a @9', 'DELETED b @10'])
    expect(watch.resourceVersion).toBe('10')
  })

  it('resumes from the last resourceVersion (bookmarks included) after a disconnect, without listing again', async () => {
    const { fake, watch } = await setup()
    fake.listAnswers = [{ items: [], rv: '3' }]
    watch.start()
    const first = await waitFor(() => fake.watches[0], { what: 'a watch', timeoutMs: 3_000 })
    send(
      first.socket,
      { type: 'ADDED', object: newPod('a', { metadata: { resourceVersion: '4' } }) },
      {
        type: 'BOOKMARK',
        object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '12' } },
      },
    )
    await waitFor(() => watch.resourceVersion === '12', { what: 'the bookmark', timeoutMs: 3_000 })
    first.socket.close()
    const second = await waitFor(() => fake.watches[1], {
      what: 'a second watch',
      timeoutMs: 3_000,
    })
    expect(second.rv).toBe('12')
    expect(fake.lists.length).toBe(1)
  })

  it('lists again after 410 Expired, as an ERROR event or as the upgrade answer', async () => {
    const { fake, watch, log } = await setup()
    fake.listAnswers = [
      { items: [newPod('a', { metadata: { resourceVersion: '1' } })], rv: '2' },
      { items: [newPod('b', { metadata: { resourceVersion: '30' } })], rv: '31' },
      { items: [newPod('c', { metadata: { resourceVersion: '40' } })], rv: '41' },
    ]
    watch.start()
    const first = await waitFor(() => fake.watches[0], { what: 'a watch', timeoutMs: 3_000 })
    send(first.socket, {
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Expired',
        code: 410,
        message: 'too old resource version: 2 (20)',
      },
    })
    const second = await waitFor(() => fake.watches[1], {
      what: 'a watch after the relist',
      timeoutMs: 3_000,
    })
    expect(second.rv).toBe('31')
    fake.failNextWatchWith = 410
    second.socket.close()
    await waitFor(() => fake.lists.length === 3, { what: 'a third list', timeoutMs: 3_000 })
    await waitFor(() => fake.watches[2], { what: 'a watch after the third list', timeoutMs: 3_000 })
    expect(fake.watches[2]!.rv).toBe('41')
    expect(log.filter((l) => l.startsWith('replace'))).toEqual([
      'replace a @2',
      'replace b @31',
      'replace c @41',
    ])
  })

  it('keeps retrying while the server is away', async () => {
    const fake = new FakeApi()
    const server = await fake.listen()
    fake.close()
    const api = new ApiClient({ server })
    let listed = false
    const watch = new ListWatch(
      api,
      {
        path: '/api/v1/pods',
        params: {},
        backoff: { initialMs: 10, maxMs: 20, factor: 2, jitter: 0 },
      },
      { replace: () => (listed = true), event: () => {} },
      quiet,
    )
    cleanups.push(() => {
      watch.stop()
      api.close()
    })
    watch.start()
    await new Promise((r) => setTimeout(r, 100))
    expect(listed).toBe(false)
  })
})

describe('parseWatchMessage', () => {
  it('splits a message into its events', () => {
    const text = `${JSON.stringify({ type: 'ADDED', object: newPod('a', { metadata: { resourceVersion: '1' } }) })}\n${JSON.stringify({ type: 'DELETED', object: newPod('a', { metadata: { resourceVersion: '2' } }) })}\n`
    expect(
      parseWatchMessage(text).map((e) => `${e.type} ${e.object.metadata.resourceVersion}`),
    ).toEqual(['ADDED 1', 'DELETED 2'])
  })
})
