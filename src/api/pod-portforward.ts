import type { Env } from '../env'
import { ApiError, badRequest } from '../apimachinery/status'
import { gatewayFor, portForwardSubprotocol, streamUrl } from '../../durable-objects/node-gateway/client'
import { authorize, forbiddenStatus } from './authorize'
import { readPod } from './pod-logs'
import { statusResponse } from './respond'
import { refuseUnlessUpgrade } from './stream-upgrade'
import { requestUser } from './user'

/**
 * GET pods/{name}/portforward as a WebSocket carrying SPDY/3.1 (`SPDY/3.1+portforward.k8s.io`,
 * what kubectl 1.30+ dials first): the socket goes to the pod's node gateway, which relays the
 * bytes to the agent, where the SPDY streams are served. A plain request (kubectl's fallback
 * SPDY upgrade, which a Worker cannot serve) gets a Status saying so.
 */
export async function servePodPortForward(req: Request, env: Env, namespace: string, name: string): Promise<Response> {
  // Opening a tunnel into a pod is a `create` (as the websocket-upgrade authorization upstream), on top of the `get` already checked.
  const user = requestUser(req)
  const attrs = { verb: 'create', group: '', version: 'v1', resource: 'pods', subresource: 'portforward', namespace, name }
  const decision = authorize(user, attrs)
  if (!decision.allowed) return statusResponse(forbiddenStatus(user, attrs, decision.reason))

  const pod = await readPod(env, namespace, name)
  const node = pod.spec?.nodeName
  if (!node) throw new ApiError(badRequest(`pod ${name} does not have a host assigned`))
  const gateway = gatewayFor(env, node)
  const refused = await refuseUnlessUpgrade(req, gateway, node, 'pods/portforward', portForwardSubprotocol)
  if (refused) return refused
  const url = streamUrl(node, { op: 'portforward', podUid: pod.metadata.uid ?? '', namespace, pod: name })
  return gateway.fetch(new Request(url, { headers: req.headers }))
}
