/** Writing to and closing the gateway's sockets, which may be closing already. */
import type { GatewayMessage } from '../../src/agent-protocol/tunnel-messages'

export function safeClose(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason)
  } catch {
    /* already closed */
  }
}

/** A control message to the agent; a socket that is closing drops it (its close ends the streams). */
export function sendToAgent(ws: WebSocket, msg: GatewayMessage): void {
  try {
    ws.send(JSON.stringify(msg))
  } catch {
    /* closing; its close handler ends the streams */
  }
}
