import type { ApiBindings } from '../bindings'
import { ApiError, badRequest } from '../../apimachinery/status'
import { maxForwardedPorts } from '../../agent-protocol/tunnel-messages'
import { gatewayFor, streamUrl } from '../../../durable-objects/node-gateway/client'
import { spdyPortForward } from '../../../durable-objects/node-gateway/stream-protocols'
import { readPod } from './logs'
import { streamUpgrade } from './stream-upgrade'

/**
 * GET pods/{name}/portforward as a WebSocket: kubectl's SPDY/3.1 tunnel
 * (`SPDY/3.1+portforward.k8s.io`, what kubectl 1.30+ dials), whose SPDY streams the agent serves,
 * or the kubelet's channels (`v4.channel.k8s.io`, its base64 form, or none offered) for the
 * `ports` asked, two channels per port, as the client libraries use it. The socket goes to the
 * pod's node gateway, which relays it to the agent. A plain request (kubectl's fallback SPDY
 * upgrade, which a Worker cannot serve) gets a Status saying so.
 */
export async function servePodPortForward(
  req: Request,
  env: ApiBindings,
  namespace: string,
  name: string,
): Promise<Response> {
  const pod = await readPod(env, namespace, name)
  const node = pod.spec?.nodeName
  if (!node) throw new ApiError(badRequest(`pod ${name} does not have a host assigned`))
  const gateway = gatewayFor(env, node)
  const upgrade = await streamUpgrade(req, gateway, node, 'pods/portforward', 'portforward')
  if (upgrade instanceof Response) return upgrade
  const { protocol } = upgrade
  const ports =
    protocol === spdyPortForward ? undefined : forwardedPorts(new URL(req.url).searchParams)
  const url = streamUrl(node, {
    op: 'portforward',
    podUid: pod.metadata.uid ?? '',
    namespace,
    pod: name,
    protocol,
    ...(ports ? { ports } : {}),
  })
  return gateway.fetch(new Request(url, { headers: req.headers }))
}

/**
 * The `ports` of a channel port-forward, read as the kubelet reads them: every `ports` value, each
 * a comma-separated list of ports from 1 to 65535, in order (a port may repeat).
 */
export function forwardedPorts(q: URLSearchParams): number[] {
  const values = q.getAll('ports')
  if (values.length === 0) throw new ApiError(badRequest('query parameter "ports" is required'))
  const ports: number[] = []
  for (const value of values) {
    if (value === '') throw new ApiError(badRequest('query parameter "ports" cannot be empty'))
    for (const p of value.split(',')) {
      const port = /^\d+$/.test(p) ? Number(p) : NaN
      if (Number.isNaN(port))
        throw new ApiError(
          badRequest(
            `unable to parse "${value}" as a port: strconv.ParseUint: parsing ${JSON.stringify(p)}: invalid syntax`,
          ),
        )
      if (port > 65535)
        throw new ApiError(
          badRequest(
            `unable to parse "${value}" as a port: strconv.ParseUint: parsing ${JSON.stringify(p)}: value out of range`,
          ),
        )
      if (port < 1) throw new ApiError(badRequest(`port "${value}" must be > 0`))
      ports.push(port)
    }
  }
  if (ports.length > maxForwardedPorts)
    throw new ApiError(
      badRequest(
        `query parameter "ports" names ${ports.length} ports; at most ${maxForwardedPorts} are forwarded over one connection`,
      ),
    )
  return ports
}
