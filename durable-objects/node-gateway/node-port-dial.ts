import type { ServiceBindings } from '../../src/service-client/bindings'
import type { KubeObject } from '../../src/apimachinery/types'
import type { Dial } from '../../src/agent-protocol/tunnel-messages'
import type { EndpointTarget } from '../../src/apis/endpoint-targets'
import { readObject } from '../../src/service-client/service-endpoints'
import { dialTarget } from './dial-target'
import { checkedTarget } from '../../src/service-client/pod-targets'

/** Each Service and its Endpoints are read at most once a second per gateway, however many connections come. */
const lookupTtlMs = 1_000
const recent = new Map<
  string,
  { at: number; objects: Promise<[KubeObject, KubeObject | undefined]> }
>()

function serviceAndEndpoints(
  env: ServiceBindings,
  namespace: string,
  name: string,
): Promise<[KubeObject, KubeObject | undefined]> {
  const key = `${namespace}/${name}`
  const now = Date.now()
  const hit = recent.get(key)
  if (hit && now - hit.at < lookupTtlMs) return hit.objects
  if (recent.size > 1_000) recent.clear()
  const objects = Promise.all([
    readObject(env, 'services', namespace, name),
    readObject(env, 'endpoints', namespace, name).catch(() => undefined),
  ])
  recent.set(key, { at: now, objects })
  objects.catch(() => recent.delete(key))
  return objects
}

/** The pod a node's `dial` may reach, or why not. */
export async function authorizeDial(
  env: ServiceBindings,
  dial: Dial,
): Promise<EndpointTarget | string> {
  let objects: [KubeObject, KubeObject | undefined]
  try {
    objects = await serviceAndEndpoints(env, dial.namespace, dial.service)
  } catch (err) {
    return err instanceof Error ? err.message : `services "${dial.service}" could not be read`
  }
  const target = dialTarget(objects[0], objects[1], dial)
  if (typeof target === 'string') return target
  return (
    (await checkedTarget(env, target)) ??
    `pod ${dial.namespace}/${dial.pod} on node "${dial.node}" is not the pod its Endpoints address names`
  )
}
