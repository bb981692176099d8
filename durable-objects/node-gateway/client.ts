import type { StreamOpen } from '../../src/agent-protocol/tunnel-messages'
import { meteredStub } from '../../src/limits/strict'
import { settingsOf } from '../../src/settings/settings'
import type { Variables } from '../../src/settings/variables'

/** The calls made on a node's gateway (node-gateway.ts implements them); its `fetch` opens the agent's tunnel or a stream through it. */
export interface NodeGatewayRpc extends Rpc.DurableObjectBranded {
  /** whether the node's agent has its tunnel open */
  connected(): boolean
  /** closes the agent's tunnel and streams: its credential no longer holds */
  revoke(reason: string): void
}

/** What reaching a node's gateway needs: the gateways (as StoreBindings names the stores), and the variables (strict limits). */
export interface GatewayBindings extends Variables {
  /** one gateway per node, named `node/<name>` */
  NODE_GATEWAY: Pick<DurableObjectNamespace<NodeGatewayRpc>, 'idFromName' | 'get'>
}

/** The gateway of one node: where its agent's tunnel ends and its log and exec streams meet it. */
export function gatewayFor(env: GatewayBindings, node: string) {
  return meteredStub(
    settingsOf(env).strictLimits,
    env.NODE_GATEWAY.get(env.NODE_GATEWAY.idFromName(`node/${node}`)),
    `gateway ${node}`,
  )
}

/** A stream to open through a node's tunnel; the gateway assigns the id. */
export type StreamRequest = (
  | Omit<Extract<StreamOpen, { op: 'logs' }>, 'id'>
  | Omit<Extract<StreamOpen, { op: 'exec' }>, 'id'>
  | Omit<Extract<StreamOpen, { op: 'portforward' }>, 'id'>
  | Omit<Extract<StreamOpen, { op: 'http' }>, 'id'>
  | Omit<Extract<StreamOpen, { op: 'websocket' }>, 'id'>
  | Omit<Extract<StreamOpen, { op: 'tcp' }>, 'id'>
) & {
  /** exec: which output channels the client asked for */
  stdout?: boolean
  stderr?: boolean
  /** exec and port-forward: the WebSocket subprotocol agreed with the client ('' when it offered none; see stream-protocols.ts) */
  protocol?: string
}

/** The gateway URL that hands the agent's tunnel (a WebSocket upgrade) to the gateway. */
export function agentUrl(node: string): string {
  return `https://gateway/agent?node=${encodeURIComponent(node)}`
}

/** The gateway URL that opens a stream (a WebSocket upgrade): log bytes, exec's channels, a port-forward. */
export function streamUrl(node: string, request: StreamRequest): string {
  return `https://gateway/stream?node=${encodeURIComponent(node)}&open=${encodeURIComponent(JSON.stringify(request))}`
}
