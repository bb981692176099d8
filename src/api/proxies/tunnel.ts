import type { ApiBindings } from '../bindings'
import { ApiError, badRequest } from '../../apimachinery/status'
import { agentUrl, gatewayFor } from '../../../durable-objects/node-gateway/client'

/**
 * GET /agent/v1/nodes/{name}/tunnel: a node agent's outbound WebSocket, handed to the node's
 * gateway. Only that node's own credential opens it, as the authorizer decides (authorize.ts).
 */
export async function serveTunnel(req: Request, env: ApiBindings, node: string): Promise<Response> {
  if (req.headers.get('Upgrade')?.toLowerCase() !== 'websocket')
    throw new ApiError(badRequest('Upgrade request required: the node tunnel is a WebSocket'))
  return gatewayFor(env, node).fetch(new Request(agentUrl(node), { headers: req.headers }))
}
