/**
 * The NodePort connections a node's agent dials to pods on other nodes, each relayed as a `tcp`
 * stream through the other node's gateway.
 */
import type { ServiceBindings } from '../../src/service-client/bindings'
import { Channel, encodeFrame } from '../../src/agent-protocol/data-frames'
import {
  agentStreamBit,
  parseAgentMessage,
  type Dial,
  type GatewayMessage,
} from '../../src/agent-protocol/tunnel-messages'
import { channelFrame } from './exec-status'
import { gatewayFor, streamUrl } from './client'
import { authorizeDial } from './node-port-dial'
import { safeClose, sendToAgent } from './sockets'

/** A NodePort connection this node's agent dialled to another node's pod: the socket to that node's gateway. */
interface Dialled {
  conn: string
  /** unset while the target is being checked and its gateway dialled */
  ws?: WebSocket
  ended: boolean
}

/** NodePort connections one node may have open to other nodes at once; more are refused (a flood stays bounded). */
export const maxDialled = 4096

/** The agent connection a stream belongs to. */
export interface AgentConnection {
  /** identifies the connection; streams opened over it end with it */
  conn: string
  node: string
}

export class DialledStreams {
  /**
   * Streams the agent dialled, by id. Held in memory: a gateway with an open outgoing socket is
   * not evicted, and a restart closes every socket, ending these streams at both ends anyway.
   */
  private readonly streams = new Map<number, Dialled>()

  constructor(
    private readonly env: ServiceBindings,
    /** the agent's open connection, if it has one */
    private readonly agent: () => { ws: WebSocket; att: AgentConnection } | undefined,
  ) {}

  /**
   * A NodePort connection from this node's agent to a pod on another node: allowed only to a ready
   * endpoint of the Service owning that node port (node-port-dial.ts), then relayed as a `tcp`
   * stream through the other node's gateway. Either the agent's or the far side's `end` ends it.
   */
  async dial(agentWs: WebSocket, att: AgentConnection, msg: Dial): Promise<void> {
    const fail = (error: string) => sendToAgent(agentWs, { op: 'end', id: msg.id, error })
    if (!(msg.id & agentStreamBit) || this.streams.has(msg.id)) return fail('invalid stream id')
    if (this.streams.size >= maxDialled)
      return fail(
        `node "${att.node}" has ${maxDialled} node port connections to other nodes open already`,
      )
    const entry: Dialled = { conn: att.conn, ended: false }
    this.streams.set(msg.id, entry)
    const target = await authorizeDial(this.env, msg)
    if (entry.ended) return
    if (typeof target === 'string') {
      this.streams.delete(msg.id)
      return fail(target)
    }
    const open = {
      op: 'tcp' as const,
      podUid: target.podUid,
      namespace: target.namespace,
      pod: target.pod,
      port: target.port,
    }
    let ws: WebSocket | null = null
    try {
      ws = (
        await gatewayFor(this.env, target.node).fetch(streamUrl(target.node, open), {
          headers: { Upgrade: 'websocket' },
        })
      ).webSocket
    } catch {
      ws = null
    }
    if (!ws) {
      this.streams.delete(msg.id)
      if (!entry.ended) fail(`node "${target.node}" has no connected agent`)
      return
    }
    ws.binaryType = 'arraybuffer'
    ws.accept()
    entry.ws = ws
    if (entry.ended) return safeClose(ws, 1000, 'stream ended')
    const toAgent = (message: GatewayMessage | Uint8Array) => {
      const agent = this.agent()
      if (!agent || agent.att.conn !== entry.conn) return
      if (message instanceof Uint8Array) agent.ws.send(message)
      else sendToAgent(agent.ws, message)
    }
    const finish = (error?: string) => {
      if (entry.ended) return
      toAgent({ op: 'end', id: msg.id, ...(error ? { error } : {}) })
      this.end(msg.id)
    }
    ws.addEventListener('message', (event) => {
      if (typeof event.data === 'string') return finish(endError(event.data))
      const bytes = new Uint8Array(event.data as ArrayBuffer)
      if (bytes.byteLength > 0) toAgent(encodeFrame(msg.id, bytes[0]!, bytes.subarray(1)))
    })
    ws.addEventListener('close', () => finish())
    ws.addEventListener('error', () => finish('the node stream failed'))
  }

  /** The agent's bytes (channel 0) or its end of sending (255) for a stream it dialled. */
  send(id: number, channel: number, payload: Uint8Array): void {
    const ws = this.streams.get(id)?.ws
    if (!ws || (channel !== Channel.stdin && channel !== Channel.close)) return
    try {
      ws.send(channelFrame(channel, payload))
    } catch {
      this.end(id)
    }
  }

  /** Ends a dialled stream, closing its socket to the other node. */
  end(id: number): void {
    const entry = this.streams.get(id)
    if (!entry) return
    entry.ended = true
    this.streams.delete(id)
    if (entry.ws) safeClose(entry.ws, 1000, 'stream ended')
  }

  /** Ends every stream dialled over the agent connection `conn`. */
  endConnection(conn: string): void {
    for (const [id, d] of this.streams) if (d.conn === conn) this.end(id)
  }
}

/** The error of a relayed `end` message, if it has one. */
function endError(text: string): string | undefined {
  const msg = parseAgentMessage(text)
  return msg?.op === 'end' ? msg.error : undefined
}
