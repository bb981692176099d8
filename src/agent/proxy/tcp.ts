import type { Socket } from 'node:net'
import type { ContainerRuntime } from '../runtime/types'
import type { TcpOpen } from '../../agent-protocol/tunnel-messages'
import type { StreamOutput } from '../stream-output'
import { Channel, type DataFrame } from '../../agent-protocol/data-frames'
import { connectPod } from './pod-socket'

const connected = new TextEncoder().encode('{}')

/**
 * One TCP connection to a pod's port on this node (a NodePort connection that entered on another
 * node): `{}` on channel 3 once the pod accepted, then its bytes on channel 1 with the socket
 * paused while the tunnel is congested; the client's bytes come on channel 0, its end on 255.
 */
export function serveTcp(runtime: ContainerRuntime, msg: TcpOpen, out: StreamOutput) {
  let socket: Socket | undefined
  let done = false
  let clientDone = false
  const pending: Uint8Array[] = []
  const finish = (error?: string) => {
    if (done) return
    done = true
    socket?.destroy()
    out.end(error ? { error } : {})
  }
  const hosts = runtime.portHosts?.(msg.podUid)
  if (!runtime.portHosts) finish('this node runs simulated containers, which listen on no ports')
  else if (!hosts?.length) finish(`pod not found ("${msg.pod}_${msg.namespace}")`)
  else {
    connectPod(hosts, msg.port).then(
      (s) => {
        if (done) return void s.destroy()
        socket = s
        out.data(Channel.head, connected)
        for (const chunk of pending.splice(0)) s.write(chunk)
        if (clientDone) s.end()
        s.on('data', (chunk: Buffer) => {
          out.data(Channel.stdout, chunk)
          if (out.congested()) {
            s.pause()
            void out.drained().then(() => s.resume())
          }
        })
        s.on('end', () => finish())
        s.on('close', () => finish())
        s.on('error', (err) => finish(err.message))
      },
      (err: Error) => finish(err.message),
    )
  }
  return {
    cancel: () => {
      done = true
      socket?.destroy()
    },
    input: (frame: DataFrame) => {
      if (done) return
      if (frame.channel === Channel.stdin) {
        if (socket) socket.write(frame.payload.slice())
        else pending.push(frame.payload.slice())
      } else if (frame.channel === Channel.close) {
        clientDone = true
        socket?.end()
      }
    },
  }
}
