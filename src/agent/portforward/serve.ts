import type { ContainerRuntime } from '../runtime/types'
import type { PortForwardOpen } from '../../agent-protocol/tunnel-messages'
import { Channel, type DataFrame } from '../../agent-protocol/data-frames'
import type { StreamOutput } from '../stream-output'
import { PortForwardSession, type PortForwardTarget } from './session'
import { serveChannelPortForward } from './channels'

/** Where the runtime says the pod's ports are, or why they cannot be reached. */
export function portForwardTarget(
  runtime: ContainerRuntime,
  msg: PortForwardOpen,
): PortForwardTarget {
  const pod = `${msg.namespace}/${msg.pod}`
  const base = { pod, uid: msg.podUid, hosts: [] as string[] }
  if (!runtime.portHosts)
    return { ...base, problem: 'this node runs simulated containers, which listen on no ports' }
  const hosts = runtime.portHosts(msg.podUid)
  if (!hosts) return { ...base, problem: `pod not found ("${msg.pod}_${msg.namespace}")` }
  return { ...base, hosts }
}

/** A port-forward stream: its `ports` over channels, or kubectl's SPDY bytes in on stdin and the agent's out on stdout. */
export function servePortForward(
  runtime: ContainerRuntime,
  msg: PortForwardOpen,
  out: StreamOutput,
) {
  if (msg.ports) return serveChannelPortForward(portForwardTarget(runtime, msg), msg.ports, out)
  const session = new PortForwardSession(portForwardTarget(runtime, msg), {
    write: (bytes) => out.data(Channel.stdout, bytes),
    drained: () => out.drained(),
    congested: () => out.congested(),
  })
  return {
    cancel: () => session.close(),
    input: (frame: DataFrame) => {
      if (frame.channel === Channel.stdin) session.input(frame.payload.slice())
    },
  }
}
