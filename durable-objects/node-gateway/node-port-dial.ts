import type { Env } from '../../src/env'
import type { KubeObject } from '../../src/apimachinery/types'
import type { Dial } from '../../src/agent-protocol/tunnel-messages'
import { endpointTargets, nodePortOf, type EndpointTarget, type ServiceSpec } from '../../src/apis/endpoint-targets'
import { readObject } from '../../src/edge/service-endpoints'

/**
 * What a node may reach on another node, decided from the Service and its Endpoints: a ready
 * endpoint (a pod of the Service's own namespace) of the TCP service port that owns `nodePort`,
 * on a Service of type NodePort or LoadBalancer whose externalTrafficPolicy is not Local, and
 * only at the port the Endpoints name. Anything else is refused with the reason.
 */
export function dialTarget(svc: KubeObject, eps: KubeObject | undefined, dial: Dial): EndpointTarget | string {
  const spec = svc.spec as ServiceSpec | undefined
  const name = `${dial.namespace}/${dial.service}`
  const port = nodePortOf(spec, dial.nodePort)
  if (!port) return `service ${name} has no TCP node port ${dial.nodePort}`
  if (spec?.externalTrafficPolicy === 'Local') return `service ${name} has externalTrafficPolicy Local: each node serves only its own endpoints`
  const target = endpointTargets(eps, port.name ?? '', dial.namespace).find((t) => t.node === dial.node && t.pod === dial.pod && t.namespace === dial.namespace)
  return target ?? `pod ${dial.namespace}/${dial.pod} on node "${dial.node}" is not a ready endpoint of service ${name} node port ${dial.nodePort}`
}

/** Each Service and its Endpoints are read at most once a second per gateway, however many connections come. */
const lookupTtlMs = 1_000
const recent = new Map<string, { at: number; objects: Promise<[KubeObject, KubeObject | undefined]> }>()

function serviceAndEndpoints(env: Env, namespace: string, name: string): Promise<[KubeObject, KubeObject | undefined]> {
  const key = `${namespace}/${name}`
  const now = Date.now()
  const hit = recent.get(key)
  if (hit && now - hit.at < lookupTtlMs) return hit.objects
  if (recent.size > 1_000) recent.clear()
  const objects = Promise.all([readObject(env, 'services', namespace, name), readObject(env, 'endpoints', namespace, name).catch(() => undefined)])
  recent.set(key, { at: now, objects })
  objects.catch(() => recent.delete(key))
  return objects
}

/** The pod a node's `dial` may reach, or why not. */
export async function authorizeDial(env: Env, dial: Dial): Promise<EndpointTarget | string> {
  let objects: [KubeObject, KubeObject | undefined]
  try {
    objects = await serviceAndEndpoints(env, dial.namespace, dial.service)
  } catch (err) {
    return err instanceof Error ? err.message : `services "${dial.service}" could not be read`
  }
  return dialTarget(objects[0], objects[1], dial)
}
