import type { ApiBindings } from '../bindings'
import { ApiError, badRequest, failure } from '../../apimachinery/status'
import {
  fetchThroughNode,
  type PodTarget,
  type TunnelHttpResult,
} from '../../service-client/tunnel-http'
import { fetchFromEndpoints, serviceEndpoints } from '../../service-client/service-endpoints'
import { readPod, type Pod } from '../pods/logs'
import { statusResponse } from '../http/respond'

/** Where a proxied request goes: the named pod or service's `port` (a name or number, or '' for the default). */
export type ProxyBackend = (
  env: ApiBindings,
  namespace: string,
  name: string,
  port: string,
  req: Request,
  path: string,
) => Promise<TunnelHttpResult>

/** A pod's port, through its node's tunnel. */
export const podBackend: ProxyBackend = async (env, namespace, name, port, req, path) =>
  fetchThroughNode(
    env,
    podTarget(await readPod(env, namespace, name), namespace, name, port),
    req,
    path,
    { dropAuthorization: true },
  )

/** One of a service's ready endpoints. */
export const serviceBackend: ProxyBackend = async (env, namespace, name, port, req, path) =>
  fetchFromEndpoints(env, await serviceEndpoints(env, namespace, name, port), req, path, {
    dropAuthorization: true,
  })

/**
 * The `proxy` subresources of pods and services (`kubectl proxy`, dashboards): the request goes
 * through the node's tunnel to the pod's port, and the pod's response comes back streamed.
 * `id` may carry a port and a scheme as upstream: `[http:]name[:port]`; `proxyPath` is the
 * proxied path as the client encoded it.
 */
export async function serveProxy(
  req: Request,
  env: ApiBindings,
  backend: ProxyBackend,
  namespace: string,
  id: string,
  proxyPath: string,
): Promise<Response> {
  const { name, port } = splitSchemeNamePort(id)
  const result = await backend(env, namespace, name, port, req, proxyPath + new URL(req.url).search)
  if (result.ok) return result.response
  return statusResponse(
    failure(503, 'ServiceUnavailable', `error trying to reach service: ${result.message}`),
  )
}

/** net.SplitSchemeNamePort: `name`, `name:port` or `scheme:name:port`; only plain http is served. */
export function splitSchemeNamePort(id: string): { name: string; port: string } {
  const parts = id.split(':')
  let scheme = ''
  let name: string
  let port = ''
  if (parts.length === 1) name = parts[0]!
  else if (parts.length === 2) [name, port] = parts as [string, string]
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string]
  else throw new ApiError(badRequest(`invalid request ${id}`))
  if (!name) throw new ApiError(badRequest(`invalid request ${id}`))
  if (scheme === 'https')
    throw new ApiError(
      badRequest(`the proxy reaches pods over plain http only: "${id}" asks for https`),
    )
  if (scheme && scheme !== 'http') throw new ApiError(badRequest(`invalid request ${id}`))
  return { name, port }
}

/** The pod's port: a number, a container port's name, or 80 when none is given (as upstream). */
function podTarget(pod: Pod, namespace: string, name: string, port: string): PodTarget {
  const node = pod.spec?.nodeName
  if (!node) throw new ApiError(badRequest(`pod ${name} does not have a host assigned`))
  let number = port === '' ? 80 : Number(port)
  if (!/^\d*$/.test(port)) {
    const containers =
      (
        pod.spec as {
          containers?: Array<{ ports?: Array<{ name?: string; containerPort: number }> }>
        }
      ).containers ?? []
    const named = containers.flatMap((c) => c.ports ?? []).find((p) => p.name === port)
    if (!named) throw new ApiError(badRequest(`pod ${name} has no container port named "${port}"`))
    number = named.containerPort
  }
  if (!Number.isInteger(number) || number < 1 || number > 65535)
    throw new ApiError(badRequest(`invalid port "${port}"`))
  return { node, podUid: pod.metadata.uid ?? '', namespace, pod: name, port: number }
}
