import type { KubeObject } from '../../apimachinery/types'
import type { ControllerDefinition, Outcome, ResourceRef } from '../runtime/types'
import { ingressClasses, ingresses, sameResource, services } from '../resources'
import { edgeIngressClass, isDefaultClass, lbHostname, servedByEdge } from '../../apis/ingress-routes'
import { jsonEqual } from '../../apimachinery/json-value'
import { objectKey, splitKey } from '../../apimachinery/object-key'


export interface EdgeStatusOptions {
  /** the edge's address for Ingress status (an IP or a hostname); none: Ingress status is left alone */
  address?: string
  /** LoadBalancer Services are served at `<svc>.<ns>.<lbDomain>` */
  lbDomain: string
}

type LbIngress = Array<{ ip?: string; hostname?: string }>

const isIP = (s: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(s) || s.includes(':')

function withLoadBalancer(obj: KubeObject, ingress: LbIngress): KubeObject {
  return { ...obj, status: { ...((obj.status as object | undefined) ?? {}), loadBalancer: ingress.length ? { ingress } : {} } }
}

function currentIngress(obj: KubeObject): LbIngress {
  return ((obj.status as { loadBalancer?: { ingress?: LbIngress } } | undefined)?.loadBalancer?.ingress ?? []) as LbIngress
}

/** The status an Ingress or Service should report, as the edge serves it; undefined when it is not the edge's to say. */
export function desiredLoadBalancer(resource: ResourceRef, obj: KubeObject, edgeIsDefault: boolean, opts: EdgeStatusOptions): LbIngress | undefined {
  if (sameResource(resource, ingresses)) {
    if (!opts.address || !servedByEdge(obj, edgeIsDefault)) return undefined
    return [isIP(opts.address) ? { ip: opts.address } : { hostname: opts.address }]
  }
  const type = (obj.spec as { type?: string } | undefined)?.type
  if (type === 'LoadBalancer') return [{ hostname: lbHostname(obj.metadata.name ?? '', obj.metadata.namespace ?? '', opts.lbDomain) }]
  // A Service that stopped being a LoadBalancer loses the address the edge gave it.
  const ours = currentIngress(obj).some((i) => i.hostname?.endsWith(`.${opts.lbDomain}`))
  return ours ? [] : undefined
}

/**
 * The edge's status writer: an Ingress of the `edgeplane` class reports the edge's address, and a
 * `type: LoadBalancer` Service its edge hostname `<svc>.<ns>.<lbDomain>`, in
 * `status.loadBalancer.ingress`. Keys are `ingress:<ns>/<name>` and `service:<ns>/<name>`.
 */
export function edgeStatusController(opts: EdgeStatusOptions): ControllerDefinition {
  const key = (kind: string, o: KubeObject) => `${kind}:${objectKey(o)}`
  return {
    name: 'edge-status',
    watches: [ingresses, ingressClasses, services],
    keysFor(resource, object, cache) {
      if (sameResource(resource, ingresses)) return [key('ingress', object)]
      if (sameResource(resource, services)) return [key('service', object)]
      return cache.list(ingresses).map((i) => key('ingress', i))
    },
    allKeys: (cache) => [...cache.list(ingresses).map((i) => key('ingress', i)), ...cache.list(services).map((s) => key('service', s))],
    reconcile(k, cache): Outcome {
      const colon = k.indexOf(':')
      const resource = k.slice(0, colon) === 'ingress' ? ingresses : services
      const { namespace, name } = splitKey(k.slice(colon + 1))
      const obj = cache.get(resource, namespace, name)
      if (!obj || obj.metadata.deletionTimestamp) return { actions: [] }
      const edgeIsDefault = isDefaultClass(cache.get(ingressClasses, undefined, edgeIngressClass))
      const desired = desiredLoadBalancer(resource, obj, edgeIsDefault, opts)
      if (desired === undefined || jsonEqual(currentIngress(obj), desired)) return { actions: [] }
      return { actions: [{ type: 'updateStatus', resource, object: withLoadBalancer(obj, desired) }] }
    },
  }
}
