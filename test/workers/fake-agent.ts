import { expect } from 'vitest'
import { SELF } from 'cloudflare:test'
import { decodeFrame, encodeFrame, type DataFrame } from '../../src/agent-protocol/data-frames'
import { joinNode } from './helpers'

const enc = new TextEncoder()

/** A node agent played by the test: the far end of the node's tunnel, inside workerd. */
export async function fakeAgent(node: string) {
  const res = await SELF.fetch(`https://edgeplane.test/agent/v1/nodes/${node}/tunnel`, {
    headers: { Authorization: `Bearer ${await joinNode(node)}`, Upgrade: 'websocket' },
  })
  expect(res.status).toBe(101)
  const ws = res.webSocket!
  ws.binaryType = 'arraybuffer'
  ws.accept()
  const messages: any[] = []
  const frames: DataFrame[] = []
  let onOpen: (msg: any) => void = () => {}
  ws.addEventListener('message', (e) => {
    if (typeof e.data === 'string') {
      const msg = JSON.parse(e.data)
      messages.push(msg)
      if (msg.op === 'logs' || msg.op === 'exec' || msg.op === 'tcp') onOpen(msg)
    } else
      frames.push({
        ...decodeFrame(e.data as ArrayBuffer)!,
        payload: new Uint8Array(decodeFrame(e.data as ArrayBuffer)!.payload),
      })
  })
  const agent = {
    ws,
    messages,
    frames,
    /** what to do when the gateway opens a stream */
    onOpen(fn: (msg: any) => void) {
      onOpen = fn
    },
    data(id: number, channel: number, text: string) {
      ws.send(encodeFrame(id, channel, enc.encode(text)))
    },
    end(id: number, extra: Record<string, unknown> = {}) {
      ws.send(JSON.stringify({ op: 'end', id, ...extra }))
    },
    close() {
      try {
        ws.close(1000, 'done')
      } catch {
        /* closed */
      }
    },
  }
  agents.push(agent)
  return agent
}

const agents: { close(): void }[] = []

/** Closes every fake agent's tunnel (after each test). */
export function closeFakeAgents(): void {
  for (const a of agents.splice(0)) a.close()
}
