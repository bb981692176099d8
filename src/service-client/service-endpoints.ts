import type { ServiceBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { ApiError, failure, unwrap } from '../apimachinery/status'
import { findResource } from '../apis/registry'
import { storeFor } from '../store-client/stores'
import { endpointTargets, type ServiceSpec } from '../apis/endpoint-targets'
import {
  fetchThroughNode,
  type PodTarget,
  type TunnelHttpOptions,
  type TunnelHttpResult,
} from './tunnel-http'
import { checkedTarget } from './pod-targets'

export async function readObject(
  env: ServiceBindings,
  resource: string,
  namespace: string,
  name: string,
): Promise<KubeObject> {
  const def = findResource('', 'v1', resource)!
  return JSON.parse(unwrap(await storeFor(env, def).get({ def, namespace, name }))) as KubeObject
}

/**
 * The ready endpoints of a service port (named, numbered or, with "", the service's only unnamed
 * port), each as the pod it is and the node that runs it, from a random starting point so that
 * successive requests spread over them. 503 as kube-apiserver's service proxy when there are none.
 */
export async function serviceEndpoints(
  env: ServiceBindings,
  namespace: string,
  name: string,
  port: string,
): Promise<PodTarget[]> {
  const svc = await readObject(env, 'services', namespace, name)
  let portName = port
  if (/^\d+$/.test(port)) {
    const match = ((svc.spec as ServiceSpec | undefined)?.ports ?? []).find(
      (p) => p.port === Number(port),
    )
    if (!match)
      throw new ApiError(
        failure(503, 'ServiceUnavailable', `no service port ${port} found for service "${name}"`),
      )
    portName = match.name ?? ''
  }
  let eps: KubeObject | undefined
  try {
    eps = await readObject(env, 'endpoints', namespace, name)
  } catch {
    eps = undefined
  }
  const targets: PodTarget[] = endpointTargets(eps, portName, namespace)
  if (targets.length === 0)
    throw new ApiError(
      failure(503, 'ServiceUnavailable', `no endpoints available for service "${name}"`),
    )
  return rotate(targets)
}

/** Ingress lookups are kept this long per isolate, so a busy route does not read two objects per request. */
const endpointsTtlMs = 1_000
const recent = new Map<string, { at: number; targets: Promise<PodTarget[]> }>()

/** serviceEndpoints, remembered for a second (a new or lost endpoint shows within that; a node whose tunnel is down is skipped anyway). */
export function recentServiceEndpoints(
  env: ServiceBindings,
  namespace: string,
  name: string,
  port: string,
): Promise<PodTarget[]> {
  const key = `${namespace}/${name}:${port}`
  const hit = recent.get(key)
  const now = Date.now()
  if (hit && now - hit.at < endpointsTtlMs) return hit.targets.then(rotate)
  if (recent.size > 1_000) recent.clear()
  const targets = serviceEndpoints(env, namespace, name, port)
  recent.set(key, { at: now, targets })
  targets.catch(() => recent.delete(key))
  return targets
}

/** Spreads successive requests over the endpoints: a random starting point each time. */
function rotate(targets: PodTarget[]): PodTarget[] {
  const start = Math.floor(Math.random() * targets.length)
  return [...targets.slice(start), ...targets.slice(0, start)]
}

/**
 * Tries the endpoints in turn until one's node answers: a node whose tunnel is down is skipped, and
 * so is an endpoint that is not the pod it names (see checkedTarget). A dial error from a
 * reachable node ends the attempt (the request body may be spent by then).
 */
export async function fetchFromEndpoints(
  env: ServiceBindings,
  targets: PodTarget[],
  req: Request,
  path: string,
  opts: TunnelHttpOptions = {},
): Promise<TunnelHttpResult> {
  let last: TunnelHttpResult = { ok: false, unreachable: true, message: 'no endpoints' }
  for (const endpoint of targets) {
    const target = await checkedTarget(env, endpoint)
    if (!target) continue
    last = await fetchThroughNode(env, target, req, path, opts)
    if (last.ok || !last.unreachable) return last
  }
  return last
}
