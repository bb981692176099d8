import { ApiError, badRequest, failure } from '../../apimachinery/status'
import {
  negotiateProtocol,
  offeredProtocols,
  supportedProtocols,
  type StreamKind,
} from '../../../durable-objects/node-gateway/stream-protocols'
import { statusResponse } from '../http/respond'

/**
 * The checks before a streaming subresource (exec, attach, portforward) is handed to a node's
 * gateway: a WebSocket upgrade, and the subprotocol chosen from those the client offers as
 * kube-apiserver and the kubelet choose it ('' when it offers none). Otherwise a Status that says
 * why: 503 when the node has no agent anyway, else 400 (kubectl's SPDY fallback, which a Worker
 * cannot serve, lands here).
 */
export async function streamUpgrade(
  req: Request,
  gateway: { connected(): Promise<boolean> | boolean },
  node: string,
  subresource: string,
  kind: StreamKind,
): Promise<{ protocol: string } | Response> {
  const upgrade = req.method === 'GET' && req.headers.get('Upgrade')?.toLowerCase() === 'websocket'
  const supported = supportedProtocols(kind)
  if (!upgrade) {
    if (!(await gateway.connected()))
      return statusResponse(
        failure(
          503,
          'ServiceUnavailable',
          `error dialing backend: node "${node}" has no connected agent`,
        ),
      )
    throw new ApiError(
      badRequest(
        `Upgrade request required: ${subresource} is served over WebSocket with subprotocol ${supported.join(', ')}`,
      ),
    )
  }
  const offered = offeredProtocols(req.headers.get('Sec-WebSocket-Protocol'))
  const protocol = negotiateProtocol(kind, offered)
  if (protocol === undefined) {
    throw new ApiError(
      badRequest(
        `unable to upgrade connection: none of the requested protocols [${offered.join(' ')}] is supported; supported: [${supported.join(' ')}]`,
      ),
    )
  }
  return { protocol }
}
