import { DurableObject } from 'cloudflare:workers'
import type { ServiceBindings } from '../../src/service-client/bindings'
import { failure } from '../../src/apimachinery/status'
import { Channel, decodeFrame, encodeFrames } from '../../src/agent-protocol/data-frames'
import {
  agentStreamBit,
  parseAgentMessage,
  pingText,
  pongText,
  tunnelReplacedCode,
  tunnelRevokedCode,
  type End,
} from '../../src/agent-protocol/tunnel-messages'
import { firstProtocol, parseOpen } from './open-request'
import { channelFrame } from './exec-status'
import type { NodeGatewayRpc } from './client'
import {
  execEndMessage,
  fromClient,
  openingMessages,
  toClient,
  type ClientAttachment,
} from './client-stream'
import { DialledStreams, type AgentConnection } from './dialled-streams'
import { safeClose, sendToAgent } from './sockets'

/** Kept on each socket so every relay decision survives hibernation. */
type Attachment = AgentAttachment | ClientAttachment

interface AgentAttachment extends AgentConnection {
  role: 'agent'
  since: number
}

const streamTag = (id: number) => `s:${id}`
/** The agent pings every 20 s; a tunnel silent for longer than this died without a close (NAT, power). */
const agentSilentAfterMs = 65_000

/**
 * One node's end of its agent's outbound tunnel. The agent's WebSocket and every client stream
 * (a log reader in the Worker, kubectl's exec socket, or its port-forward socket) are hibernatable sockets of this object;
 * it relays between them: control messages as JSON text, data as `[id][channel][payload]` frames.
 */
export class NodeGateway extends DurableObject<ServiceBindings> implements NodeGatewayRpc {
  /** The NodePort connections the agent dialled to other nodes. */
  private readonly dialled: DialledStreams

  constructor(ctx: DurableObjectState, env: ServiceBindings) {
    super(ctx, env)
    this.dialled = new DialledStreams(env, () => this.agent())
    // The agent's keepalives are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(pingText, pongText))
  }

  /** `/agent` (the agent's tunnel) or `/stream?open=` (a client stream); both WebSocket upgrades. */
  override async fetch(req: Request): Promise<Response> {
    if (req.headers.get('Upgrade')?.toLowerCase() !== 'websocket')
      return new Response('expected a WebSocket upgrade', { status: 426 })
    const url = new URL(req.url)
    const node = url.searchParams.get('node') ?? ''
    if (url.pathname === '/agent') return this.acceptAgent(node)
    if (url.pathname === '/stream') return this.openStream(node, url.searchParams.get('open') ?? '')
    return new Response('not found', { status: 404 })
  }

  /** Whether the node's agent has a tunnel open (for tests and diagnostics). */
  connected(): boolean {
    return this.agent() !== undefined
  }

  /** Closes the agent's tunnel and ends its streams: its credential was revoked, and it must authenticate again to return. */
  revoke(reason: string): void {
    for (const ws of this.ctx.getWebSockets('agent')) {
      const att = ws.deserializeAttachment() as AgentAttachment
      this.endStreams(att.conn, reason)
      safeClose(ws, tunnelRevokedCode, reason)
    }
  }

  private acceptAgent(node: string): Response {
    // A new tunnel replaces the old one, which is usually a connection that died without a close.
    for (const old of this.ctx.getWebSockets('agent')) {
      const att = old.deserializeAttachment() as AgentAttachment
      this.endStreams(att.conn, `node "${node}" agent reconnected`)
      safeClose(old, tunnelReplacedCode, 'replaced by a newer connection')
    }
    const pair = new WebSocketPair()
    const server = pair[1]
    this.ctx.acceptWebSocket(server, ['agent'])
    server.serializeAttachment({
      role: 'agent',
      conn: crypto.randomUUID(),
      node,
      since: Date.now(),
    } satisfies AgentAttachment)
    return new Response(null, { status: 101, webSocket: pair[0] })
  }

  private openStream(node: string, openText: string): Response {
    const agent = this.agent()
    if (!agent) {
      const status = failure(
        503,
        'ServiceUnavailable',
        `error dialing backend: node "${node}" has no connected agent`,
      )
      return new Response(JSON.stringify(status), {
        status: 503,
        headers: { 'Content-Type': 'application/json' },
      })
    }
    const request = parseOpen(openText)
    if (!request) return new Response('invalid stream request', { status: 400 })
    const id = this.newStreamId()
    const pair = new WebSocketPair()
    const server = pair[1]
    this.ctx.acceptWebSocket(server, [streamTag(id)])
    const { open } = request
    const exec = open.op === 'exec'
    const att: ClientAttachment = {
      role: 'client',
      id,
      kind: open.op,
      conn: agent.att.conn,
      node,
      stdout: exec ? request.stdout : true,
      stderr: exec ? request.stderr : false,
      command: exec ? open.command : [],
      ...(request.protocol !== undefined ? { protocol: request.protocol } : {}),
      ...(open.op === 'portforward' && open.ports ? { ports: open.ports } : {}),
    }
    server.serializeAttachment(att)
    sendToAgent(agent.ws, { ...open, id })
    for (const message of openingMessages(att)) server.send(message)
    const protocol =
      exec || open.op === 'portforward'
        ? request.protocol
        : open.op === 'websocket'
          ? firstProtocol(open.headers)
          : undefined
    const headers = protocol ? { 'Sec-WebSocket-Protocol': protocol } : undefined
    return new Response(null, { status: 101, webSocket: pair[0], headers })
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const att = ws.deserializeAttachment() as Attachment | null
    if (!att) return
    if (att.role === 'agent') this.fromAgent(ws, att, message)
    else this.fromClient(att, message)
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    safeClose(ws, code === 1005 || code === 1006 ? 1000 : code, 'closed')
    this.gone(ws)
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.gone(ws)
  }

  private fromAgent(ws: WebSocket, att: AgentAttachment, message: string | ArrayBuffer): void {
    if (typeof message === 'string') {
      if (message === pingText) return ws.send(pongText)
      const msg = parseAgentMessage(message)
      if (!msg) return
      if (msg.op === 'dial') return void this.dialled.dial(ws, att, msg)
      if (msg.id & agentStreamBit) return this.dialled.end(msg.id)
      const client = this.client(msg.id)
      if (client) this.finish(client.ws, client.att, msg)
      return
    }
    const frame = decodeFrame(message)
    if (!frame) return
    if (frame.id & agentStreamBit) return this.dialled.send(frame.id, frame.channel, frame.payload)
    const client = this.client(frame.id)
    if (!client || client.att.conn !== att.conn) {
      // Its client left before the cancel reached the agent; say it again.
      sendToAgent(ws, { op: 'cancel', id: frame.id })
      return
    }
    if (client.att.kind === 'websocket') {
      // A message from the pod: binary on channel 1, text on channel 2.
      if (frame.channel === Channel.stdout) client.ws.send(frame.payload)
      else if (frame.channel === Channel.stderr)
        client.ws.send(new TextDecoder().decode(frame.payload))
      return
    }
    if (client.att.kind === 'http' || client.att.kind === 'tcp') {
      // The response head (channel 3) and body (1), channel-tagged as exec's frames; for tcp, "connected" and the pod's bytes.
      if (frame.channel === Channel.stdout || frame.channel === Channel.head)
        client.ws.send(channelFrame(frame.channel, frame.payload))
      return
    }
    // exec's output and a port's data and errors in the client's protocol; log bytes and SPDY bytes as they are.
    const out = toClient(client.att, frame.channel, frame.payload)
    if (out !== undefined) client.ws.send(out)
  }

  /** A client's message: read in its stream's protocol, text and binary alike, and passed on to the agent. */
  private fromClient(att: ClientAttachment, message: string | ArrayBuffer): void {
    if (att.kind === 'websocket') return this.forwardMessage(att, message)
    const frame = fromClient(att, message)
    const agent = this.agent()
    if (!frame || !agent || agent.att.conn !== att.conn) return
    for (const out of encodeFrames(att.id, frame.channel, frame.payload)) agent.ws.send(out)
  }

  /** A proxied WebSocket's message, its kind kept: binary on channel 1, text on channel 2. */
  private forwardMessage(att: ClientAttachment, message: string | ArrayBuffer): void {
    const agent = this.agent()
    if (!agent || agent.att.conn !== att.conn) return
    const text = typeof message === 'string'
    const bytes = text ? new TextEncoder().encode(message) : new Uint8Array(message)
    for (const frame of encodeFrames(att.id, text ? Channel.stderr : Channel.stdout, bytes))
      agent.ws.send(frame)
  }

  /** Ends a client stream: exec gets its Status on channel 3; a log reader gets the end message. */
  private finish(ws: WebSocket, att: ClientAttachment, end: Pick<End, 'exitCode' | 'error'>): void {
    try {
      if (att.kind === 'portforward' || att.kind === 'websocket') {
        // Port-forward has no status channel: the close says why (a port's own failure came on its error channel).
        ws.serializeAttachment({ ...att, conn: '' })
        safeClose(ws, end.error ? 1011 : 1000, (end.error ?? 'stream ended').slice(0, 120))
        return
      }
      const last =
        att.kind === 'exec'
          ? execEndMessage(att, end)
          : JSON.stringify({ op: 'end', id: att.id, ...end })
      if (last !== undefined) ws.send(last)
    } catch {
      /* the client already left */
    }
    // A finished stream is no longer found by id, so late frames for it are dropped.
    ws.serializeAttachment({ ...att, conn: '' })
    safeClose(ws, 1000, 'stream ended')
  }

  private gone(ws: WebSocket): void {
    const att = ws.deserializeAttachment() as Attachment | null
    if (!att) return
    if (att.role === 'agent') {
      this.endStreams(att.conn, `node "${att.node}" agent disconnected`)
      return
    }
    // The client went away: the agent stops the stream.
    const agent = this.agent()
    if (att.conn && agent && agent.att.conn === att.conn)
      sendToAgent(agent.ws, { op: 'cancel', id: att.id })
  }

  private endStreams(conn: string, error: string): void {
    this.dialled.endConnection(conn)
    for (const ws of this.ctx.getWebSockets()) {
      const att = ws.deserializeAttachment() as Attachment | null
      if (att?.role === 'client' && att.conn === conn) this.finish(ws, att, { error })
    }
  }

  /** The newest open agent connection; one whose keepalives stopped is closed rather than used. */
  private agent(): { ws: WebSocket; att: AgentAttachment } | undefined {
    let best: { ws: WebSocket; att: AgentAttachment } | undefined
    for (const ws of this.ctx.getWebSockets('agent')) {
      if (ws.readyState !== WebSocket.OPEN) continue
      const att = ws.deserializeAttachment() as AgentAttachment
      const lastPing = this.ctx.getWebSocketAutoResponseTimestamp(ws)?.getTime() ?? 0
      if (Date.now() - Math.max(lastPing, att.since) > agentSilentAfterMs) {
        this.endStreams(att.conn, `node "${att.node}" agent stopped answering`)
        safeClose(ws, 1011, 'no keepalive')
        continue
      }
      if (!best || att.since > best.att.since) best = { ws, att }
    }
    return best
  }

  private client(id: number): { ws: WebSocket; att: ClientAttachment } | undefined {
    for (const ws of this.ctx.getWebSockets(streamTag(id))) {
      const att = ws.deserializeAttachment() as ClientAttachment | null
      if (att?.conn) return { ws, att }
    }
    return undefined
  }

  private newStreamId(): number {
    for (;;) {
      const id = crypto.getRandomValues(new Uint32Array(1))[0]! & ~agentStreamBit
      if (this.ctx.getWebSockets(streamTag(id)).length === 0) return id
    }
  }
}
