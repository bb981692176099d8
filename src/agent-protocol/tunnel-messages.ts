import { z } from 'zod'

/**
 * Control messages of the node tunnel: JSON text frames between a node's gateway (the API server
 * side) and its agent. The gateway opens streams (`logs`, `exec`, `portforward`, `http`, `websocket`) and may `cancel` them; the agent
 * answers each stream with data frames (see data-frames.ts) and exactly one final `end`.
 */

/** Stream ids travel as u32 in data frames. */
const streamId = z.number().int().min(0).max(0xffffffff)

export const logOptionsSchema = z.object({
  container: z.string().min(1),
  follow: z.boolean().optional(),
  tailLines: z.number().int().min(0).optional(),
  previous: z.boolean().optional(),
  sinceSeconds: z.number().int().min(1).optional(),
  timestamps: z.boolean().optional(),
  limitBytes: z.number().int().min(1).optional(),
})

export const logsOpenSchema = z.object({
  op: z.literal('logs'),
  id: streamId,
  podUid: z.string(),
  namespace: z.string(),
  pod: z.string(),
  opts: logOptionsSchema,
})

export const execOpenSchema = z
  .object({
    op: z.literal('exec'),
    id: streamId,
    podUid: z.string(),
    namespace: z.string().optional(),
    pod: z.string().optional(),
    container: z.string().min(1),
    /** the command to run; empty when attaching */
    command: z.array(z.string()),
    /** attach to the container's own process (`pods/attach`) instead of running a command */
    attach: z.boolean().optional(),
    /** the client sends stdin (data frames on channel 0, then channel 255 at its EOF) */
    stdin: z.boolean(),
    /** a terminal was asked for: stderr is merged into stdout, resize frames may come on channel 4 */
    tty: z.boolean(),
  })
  .refine((o) => o.attach === true || o.command.length > 0, {
    message: 'exec needs a command',
    path: ['command'],
  })

/** Ports one channel port-forward may carry: two channels each, numbered in a byte. */
export const maxForwardedPorts = 128

/**
 * A port-forward connection. Without `ports`, kubectl's SPDY bytes flow in on channel 0 and the
 * agent's out on 1. With `ports`, the kubelet's WebSocket form: each port is dialled once, at
 * once; the client's bytes for port i come on channel 2i and the pod's go back on 2i; a failure's
 * message goes on 2i+1; the agent ends the stream when every port's connection has ended.
 */
export const portForwardOpenSchema = z.object({
  op: z.literal('portforward'),
  id: streamId,
  podUid: z.string(),
  namespace: z.string(),
  pod: z.string(),
  ports: z.array(z.number().int().min(1).max(65535)).min(1).max(maxForwardedPorts).optional(),
})

/**
 * One HTTP request to a pod's port (API proxies, Ingress). The request body comes as data frames
 * on channel 0 and ends with channel 255; the agent answers with the response head on channel 3
 * (JSON `{status, headers}`), the body on channel 1, then `end`.
 */
export const httpOpenSchema = z.object({
  op: z.literal('http'),
  id: streamId,
  podUid: z.string(),
  namespace: z.string(),
  pod: z.string(),
  port: z.number().int().min(1).max(65535),
  method: z.string().min(1),
  /** path and query, as sent to the pod */
  path: z.string().startsWith('/'),
  headers: z.array(z.tuple([z.string(), z.string()])),
  /**
   * Speak TLS to the pod and check its certificate for `serverName`, against `ca` (PEM) when given,
   * else the node's trust store: how kube-apiserver reaches a `service` admission webhook.
   */
  tls: z
    .object({
      serverName: z.string().min(1),
      ca: z
        .string()
        .max(1024 * 1024)
        .optional(),
    })
    .optional(),
})

/**
 * A WebSocket to a pod's port (Ingress, API proxies): messages travel as data frames both ways,
 * binary on channel 1 and text on channel 2; the agent's `end` closes the client's socket.
 */
export const websocketOpenSchema = httpOpenSchema.extend({ op: z.literal('websocket') })

/**
 * A TCP connection to a pod's port (a NodePort connection from another node): the client's bytes
 * come as data frames on channel 0, its end of sending as channel 255; the agent writes `{}` on
 * channel 3 once the pod's port has accepted, then the pod's bytes on channel 1, then `end`.
 */
export const tcpOpenSchema = z.object({
  op: z.literal('tcp'),
  id: streamId,
  podUid: z.string(),
  namespace: z.string(),
  pod: z.string(),
  port: z.number().int().min(1).max(65535),
})

export const cancelSchema = z.object({ op: z.literal('cancel'), id: streamId })

/**
 * agent → gateway: a stream the agent opens (ids with the top bit set; the gateway's own have it
 * clear). A NodePort connection for an endpoint on another node: the gateway checks that the pod
 * is a ready endpoint of the Service that owns `nodePort` and opens a `tcp` stream to that pod
 * through its node's gateway; frames then flow as for `tcp`, and either side ends it with `end`.
 */
export const dialSchema = z.object({
  op: z.literal('dial'),
  id: streamId,
  namespace: z.string().min(1),
  service: z.string().min(1),
  nodePort: z.number().int().min(1).max(65535),
  /** the endpoint chosen: its node and pod */
  node: z.string().min(1),
  pod: z.string().min(1),
})

export const endSchema = z.object({
  op: z.literal('end'),
  id: streamId,
  /** exec: the command's exit code */
  exitCode: z.number().int().optional(),
  /** the stream could not be served, or failed; for logs before any data it becomes a 400 */
  error: z.string().optional(),
})

/** gateway → agent (`end`: a stream the agent dialled is over) */
export const gatewayMessageSchema = z.discriminatedUnion('op', [
  logsOpenSchema,
  execOpenSchema,
  portForwardOpenSchema,
  httpOpenSchema,
  websocketOpenSchema,
  tcpOpenSchema,
  cancelSchema,
  endSchema,
])
/** agent → gateway */
export const agentMessageSchema = z.discriminatedUnion('op', [endSchema, dialSchema])

export type LogsOpen = z.infer<typeof logsOpenSchema>
export type ExecOpen = z.infer<typeof execOpenSchema>
export type PortForwardOpen = z.infer<typeof portForwardOpenSchema>
export type HttpOpen = z.infer<typeof httpOpenSchema>
export type WebSocketOpen = z.infer<typeof websocketOpenSchema>
export type TcpOpen = z.infer<typeof tcpOpenSchema>
export type Dial = z.infer<typeof dialSchema>
export type StreamOpen = LogsOpen | ExecOpen | PortForwardOpen | HttpOpen | WebSocketOpen | TcpOpen
export type Cancel = z.infer<typeof cancelSchema>
export type End = z.infer<typeof endSchema>
export type GatewayMessage = z.infer<typeof gatewayMessageSchema>
export type AgentMessage = z.infer<typeof agentMessageSchema>

/** The close code of a tunnel that a newer connection for the same node replaced. */
export const tunnelReplacedCode = 4000

/** The close code of a tunnel whose node credential was revoked (its Node or credential deleted). */
export const tunnelRevokedCode = 4001

/** Stream ids the agent chooses (`dial`) have this bit set; those the gateway chooses have it clear. */
export const agentStreamBit = 0x80000000

/**
 * Keepalive: the agent sends this text frame; the gateway answers without waking up. The
 * gateway's automatic answer applies to every socket it holds, proxied WebSockets included, so
 * the text is one no application would send ("ping" from a user's app must reach the pod).
 */
export const pingText = 'edgeplane-tunnel-ping'
export const pongText = 'edgeplane-tunnel-pong'

/** Parses a text frame; undefined when it is not valid JSON or not a known message. */
export function parseGatewayMessage(text: string): GatewayMessage | undefined {
  return parseWith(gatewayMessageSchema, text)
}

export function parseAgentMessage(text: string): AgentMessage | undefined {
  return parseWith(agentMessageSchema, text)
}

function parseWith<T>(schema: z.ZodType<T>, text: string): T | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  const res = schema.safeParse(value)
  return res.success ? res.data : undefined
}
