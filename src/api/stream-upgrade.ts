import { ApiError, badRequest, failure } from '../apimachinery/status'
import { statusResponse } from './respond'

/**
 * The checks before a streaming subresource (exec, portforward) is handed to a node's gateway:
 * a WebSocket upgrade offering `subprotocol`. Otherwise a Status that says why: 503 when the node
 * has no agent anyway, else 400 (kubectl's SPDY fallback, which a Worker cannot serve, lands here).
 * Undefined when the request may go on.
 */
export async function refuseUnlessUpgrade(req: Request, gateway: { connected(): Promise<boolean> | boolean }, node: string, subresource: string, subprotocol: string): Promise<Response | undefined> {
  const upgrade = req.method === 'GET' && req.headers.get('Upgrade')?.toLowerCase() === 'websocket'
  if (!upgrade) {
    if (!(await gateway.connected())) return statusResponse(failure(503, 'ServiceUnavailable', `error dialing backend: node "${node}" has no connected agent`))
    throw new ApiError(badRequest(`Upgrade request required: ${subresource} is served over WebSocket with subprotocol ${subprotocol}`))
  }
  const offered = (req.headers.get('Sec-WebSocket-Protocol') ?? '').split(',').map((p) => p.trim())
  if (!offered.includes(subprotocol)) {
    throw new ApiError(badRequest(`unable to upgrade connection: none of the requested protocols [${offered.filter(Boolean).join(' ')}] is supported; supported: [${subprotocol}]`))
  }
  return undefined
}
