import {
  execOpenSchema,
  httpOpenSchema,
  logsOpenSchema,
  portForwardOpenSchema,
  tcpOpenSchema,
  websocketOpenSchema,
  type StreamOpen,
} from '../../src/agent-protocol/tunnel-messages'

/** A stream request from the Worker (see client.ts): the open message without its id, exec's output channels, the subprotocol. */
export interface OpenRequest {
  open: StreamOpen
  stdout: boolean
  stderr: boolean
  protocol?: string
}

export function parseOpen(text: string): OpenRequest | undefined {
  let value: Record<string, unknown>
  try {
    value = JSON.parse(text) as Record<string, unknown>
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const { stdout, stderr, protocol, ...rest } = value
  const schemas = {
    exec: execOpenSchema,
    portforward: portForwardOpenSchema,
    http: httpOpenSchema,
    websocket: websocketOpenSchema,
    tcp: tcpOpenSchema,
    logs: logsOpenSchema,
  }
  const schema = schemas[rest.op as keyof typeof schemas] ?? logsOpenSchema
  const res = schema.safeParse({ ...rest, id: 0 })
  if (!res.success) return undefined
  return {
    open: res.data,
    stdout: stdout !== false,
    stderr: stderr === true,
    ...(typeof protocol === 'string' ? { protocol } : {}),
  }
}

/** The subprotocol answered to a proxied WebSocket: the client's first offer (the pod's choice is not known yet). */
export function firstProtocol(headers: Array<[string, string]>): string | undefined {
  const offered = headers.find(([name]) => name.toLowerCase() === 'sec-websocket-protocol')?.[1]
  return offered?.split(',')[0]?.trim() || undefined
}
