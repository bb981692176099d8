import type { Socket } from 'node:net'
import type { EndpointTarget } from '../../apis/endpoint-targets'
import { Channel } from '../../agent-protocol/data-frames'
import type { ContainerRuntime } from '../runtime/types'
import type { Tunnel } from '../tunnel'
import type { Logger } from '../log'
import { connectPod } from '../proxy/pod-socket'
import type { NodePortEntry } from './table'

export interface ForwardContext {
  node: string
  runtime: ContainerRuntime
  tunnel: Pick<Tunnel, 'dial'>
  log: Logger
  /** The uid of a pod this node runs, by namespace and name (the node's own pods, never an Endpoints' word). */
  podUid(namespace: string, name: string): string | undefined
}

/**
 * One connection accepted on a node port (paused): joined to the first endpoint that accepts, in
 * the order given. An endpoint on this node is dialled directly where the runtime says its ports
 * are; one on another node through the tunnel (this node's gateway → that node's gateway → its
 * agent). When none accepts, the connection is reset.
 */
export async function forwardConnection(
  client: Socket,
  entry: NodePortEntry,
  targets: EndpointTarget[],
  ctx: ForwardContext,
): Promise<void> {
  const what = `node port ${entry.nodePort} (${entry.namespace}/${entry.service})`
  let clientGone = false
  client.once('close', () => (clientGone = true))
  client.on('error', () => {})
  for (const target of targets) {
    if (clientGone) return
    try {
      if (target.node === ctx.node) return await joinLocal(client, target, ctx)
      return await joinRemote(client, entry, target, ctx)
    } catch (err) {
      ctx.log.debug(
        `${what}: ${target.namespace}/${target.pod} on node ${target.node}: ${(err as Error).message}`,
      )
    }
  }
  ctx.log.debug(`${what}: no endpoint accepted the connection`)
  client.resetAndDestroy()
}

async function joinLocal(
  client: Socket,
  target: EndpointTarget,
  ctx: ForwardContext,
): Promise<void> {
  if (!ctx.runtime.portHosts)
    throw new Error('this node runs simulated containers, which listen on no ports')
  // An Endpoints address names its pod; the node reaches only a pod of that name it runs itself.
  const uid = ctx.podUid(target.namespace, target.pod)
  if (!uid || (target.podUid && target.podUid !== uid))
    throw new Error('pod not found on this node')
  const hosts = ctx.runtime.portHosts(uid)
  if (!hosts?.length) throw new Error('pod not found on this node')
  const pod = await connectPod(hosts, target.port)
  pod.on('error', () => client.destroy())
  client.on('error', () => pod.destroy())
  pod.on('close', () => client.destroy())
  client.on('close', () => pod.destroy())
  client.pipe(pod)
  pod.pipe(client)
  client.resume()
}

/** Resolves once the far agent says the pod accepted; rejects with its error when it could not. */
function joinRemote(
  client: Socket,
  entry: NodePortEntry,
  target: EndpointTarget,
  ctx: ForwardContext,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let connected = false
    const stream = ctx.tunnel.dial(
      {
        namespace: entry.namespace,
        service: entry.service,
        nodePort: entry.nodePort,
        node: target.node,
        pod: target.pod,
      },
      {
        data(channel, payload) {
          if (channel === Channel.head && !connected) {
            connected = true
            start()
            resolve()
          } else if (channel === Channel.stdout && connected) client.write(payload.slice())
        },
        end(error) {
          if (!connected)
            return reject(new Error(error ?? 'the stream ended before the pod accepted'))
          client.end()
        },
      },
    )
    if (!stream)
      return reject(new Error(`the tunnel is down, so node ${target.node} cannot be reached`))
    const start = () => {
      client.on('data', (chunk: Buffer) => {
        stream.write(chunk)
        if (stream.congested()) {
          client.pause()
          void stream.drained().then(() => client.resume())
        }
      })
      client.on('end', () => stream.endInput())
      client.on('close', () => stream.close())
      client.resume()
    }
    client.once('close', () => {
      if (connected) return
      stream.close()
      reject(new Error('the client left'))
    })
  })
}
