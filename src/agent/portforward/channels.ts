import type { Socket } from 'node:net'
import type { DataFrame } from '../../agent-protocol/data-frames'
import type { StreamOutput } from '../stream-output'
import { connectPod } from '../proxy/pod-socket'
import { PodInput, maxHeldInput } from './pod-input'
import type { PortForwardTarget } from './session'

/** One forwarded port: a single connection to the pod's port, for the life of the stream. */
interface Forward {
  port: number
  socket?: Socket
  /** the client's bytes, held while the pod's socket connects or is not taking them */
  input: PodInput
  done: boolean
}

/**
 * The kubelet's side of port-forward over WebSocket channels: each port asked for is dialled
 * once, at once, and joined to its data channel (2i both ways); a failure's message goes on its
 * error channel (2i+1) as the kubelet words it. A port is done when its connection ends or fails,
 * and the stream ends when every port is done (the client then sees its socket close). The pod's
 * bytes wait while the tunnel is congested, and the client's while the pod's socket is
 * (./pod-input): a port whose pod leaves more than 1 MiB of them waiting fails.
 */
export function serveChannelPortForward(
  target: PortForwardTarget,
  ports: number[],
  out: StreamOutput,
) {
  const forwards: Forward[] = ports.map((port) => ({ port, input: new PodInput(), done: false }))
  let closed = false

  const done = (f: Forward) => {
    if (f.done) return
    f.done = true
    f.socket?.destroy()
    f.input.clear()
    if (!closed && forwards.every((x) => x.done)) {
      closed = true
      out.end({})
    }
  }
  const fail = (f: Forward, index: number, reason: string) => {
    if (f.done || closed) return
    out.data(
      2 * index + 1,
      new TextEncoder().encode(
        `error forwarding port ${f.port} to pod ${target.pod}, uid ${target.uid}: ${reason}`,
      ),
    )
    done(f)
  }

  forwards.forEach((f, index) => {
    if (target.problem) return fail(f, index, target.problem)
    connectPod(target.hosts, f.port).then(
      (socket) => {
        if (f.done || closed) return void socket.destroy()
        f.socket = socket
        f.input.connected(socket)
        socket.on('data', (chunk: Buffer) => {
          out.data(2 * index, chunk)
          if (out.congested()) {
            socket.pause()
            void out.drained().then(() => socket.resume())
          }
        })
        socket.on('error', (err: Error) => fail(f, index, err.message))
        socket.on('close', () => done(f))
      },
      (err: Error) => fail(f, index, err.message),
    )
  })

  return {
    cancel: () => {
      closed = true
      for (const f of forwards) done(f)
    },
    input: (frame: DataFrame) => {
      const index = frame.channel / 2
      const f = frame.channel % 2 === 0 ? forwards[index] : undefined
      if (!f || f.done || frame.payload.byteLength === 0) return
      if (!f.input.write(frame.payload.slice()))
        fail(
          f,
          index,
          `more than ${maxHeldInput} bytes from the client are waiting for the pod to read them`,
        )
    },
  }
}
