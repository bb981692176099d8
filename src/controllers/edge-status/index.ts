import type { KubeObject } from '../../apimachinery/types'
import type { Cache, ControllerDefinition, Outcome, ResourceRef } from '../runtime/types'
import { ingressClasses, ingresses, sameResource, services } from '../resources'
import {
  edgeIngressClass,
  edgeSettingsOf,
  lbHostname,
  servedByEdge,
  servedIngresses,
  type EdgeSettings,
} from '../../apis/ingress-routes'
import { hostOwnership, notServedMessage } from '../../apis/host-ownership'
import { jsonEqual } from '../../apimachinery/json-value'
import { objectKey, splitKey } from '../../apimachinery/object-key'
import { event } from '../shared/events'
import { memoryChanges, nothingRemembered, withMemory } from '../runtime/memory'

export interface EdgeStatusOptions {
  /** the edge's address for Ingress status (an IP or a hostname); none: Ingress status is left alone */
  address?: string
  /** LoadBalancer Services are served at `<svc>.<ns>.<lbDomain>` */
  lbDomain: string
  /** the API server's hostnames, which no Ingress may claim */
  apiHosts?: readonly string[]
}

type LbIngress = Array<{ ip?: string; hostname?: string }>

const isIP = (s: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(s) || s.includes(':')

/** The reason of the Warning event an Ingress that is not served gets. */
export const hostClaimedReason = 'HostClaimed'

function withLoadBalancer(obj: KubeObject, ingress: LbIngress): KubeObject {
  return {
    ...obj,
    status: {
      ...((obj.status as object | undefined) ?? {}),
      loadBalancer: ingress.length ? { ingress } : {},
    },
  }
}

function currentIngress(obj: KubeObject): LbIngress {
  return ((obj.status as { loadBalancer?: { ingress?: LbIngress } } | undefined)?.loadBalancer
    ?.ingress ?? []) as LbIngress
}

/**
 * The status an Ingress or Service should report, as the edge serves it; undefined when it is not
 * the edge's to say. `refused`: the Ingress is of the edge's class but not served (host claims).
 */
export function desiredLoadBalancer(
  resource: ResourceRef,
  obj: KubeObject,
  edgeIsDefault: boolean,
  opts: EdgeStatusOptions,
  refused = false,
): LbIngress | undefined {
  if (sameResource(resource, ingresses)) {
    if (!opts.address || !servedByEdge(obj, edgeIsDefault)) return undefined
    return refused ? [] : [isIP(opts.address) ? { ip: opts.address } : { hostname: opts.address }]
  }
  const type = (obj.spec as { type?: string } | undefined)?.type
  if (type === 'LoadBalancer')
    return [
      {
        hostname: lbHostname(obj.metadata.name ?? '', obj.metadata.namespace ?? '', opts.lbDomain),
      },
    ]
  // A Service that stopped being a LoadBalancer loses the address the edge gave it.
  const ours = currentIngress(obj).some((i) => i.hostname?.endsWith(`.${opts.lbDomain}`))
  return ours ? [] : undefined
}

/** Host ownership over the cached Ingresses, computed again only when they or the edge class changed. */
function ownershipCache() {
  let last:
    | { list: KubeObject[]; edgeClass: KubeObject | undefined; refused: Map<string, string[]> }
    | undefined
  return (cache: Cache, settings: EdgeSettings): Map<string, string[]> => {
    const list = cache.list(ingresses)
    const edgeClass = cache.get(ingressClasses, undefined, edgeIngressClass)
    if (
      last &&
      last.edgeClass === edgeClass &&
      last.list.length === list.length &&
      last.list.every((o, i) => o === list[i])
    )
      return last.refused
    last = {
      list,
      edgeClass,
      refused: hostOwnership(servedIngresses(list, settings.edgeIsDefault), settings).refused,
    }
    return last.refused
  }
}

/**
 * The edge's status writer: an Ingress of the `edgeplane` class reports the edge's address, and a
 * `type: LoadBalancer` Service its edge hostname `<svc>.<ns>.<lbDomain>`, in
 * `status.loadBalancer.ingress`. An Ingress the edge does not serve because of its host claims
 * (see host-ownership.ts) reports no address and gets a Warning event `HostClaimed` saying why,
 * once for each reason (its memory keeps the last one said). Keys are `ingress:<ns>/<name>` and
 * `service:<ns>/<name>`; any Ingress change revisits every Ingress, since one Ingress's claims
 * decide whether others are served.
 */
export function edgeStatusController(opts: EdgeStatusOptions): ControllerDefinition {
  const key = (kind: string, o: KubeObject) => `${kind}:${objectKey(o)}`
  const refusals = ownershipCache()
  const ingressKeys = (cache: Cache) => cache.list(ingresses).map((i) => key('ingress', i))
  return {
    name: 'edge-status',
    watches: {
      kinds: [ingresses, ingressClasses, services],
      keysFor(resource, object, cache) {
        if (sameResource(resource, services)) return [key('service', object)]
        const keys = ingressKeys(cache)
        // A deleted Ingress is no longer in the cache, yet its memory is to be let go.
        return sameResource(resource, ingresses)
          ? [...new Set([key('ingress', object), ...keys])]
          : keys
      },
      allKeys: (cache) => [
        ...ingressKeys(cache),
        ...cache.list(services).map((s) => key('service', s)),
      ],
    },
    reconcile(k, cache, _now, _refused, memory = nothingRemembered): Outcome {
      const colon = k.indexOf(':')
      const resource = k.slice(0, colon) === 'ingress' ? ingresses : services
      const { namespace, name } = splitKey(k.slice(colon + 1))
      const obj = cache.get(resource, namespace, name)
      if (!obj || obj.metadata.deletionTimestamp)
        return withMemory({ actions: [] }, memoryChanges(memory, [[k, undefined]]))
      const settings = edgeSettingsOf(
        cache.get(ingressClasses, undefined, edgeIngressClass),
        opts.lbDomain,
        opts.apiHosts ?? [],
      )
      const isIngress = sameResource(resource, ingresses)
      const reasons =
        isIngress && servedByEdge(obj, settings.edgeIsDefault)
          ? refusals(cache, settings).get(objectKey(obj))
          : undefined
      const actions: Outcome['actions'] = []
      let said: string | undefined
      if (reasons) {
        const message = `Ingress ${notServedMessage(reasons)}`
        said = `${obj.metadata.uid ?? ''} ${message}`
        if (memory.get(k) !== said) actions.push(event(obj, 'Warning', hostClaimedReason, message))
      }
      const desired = desiredLoadBalancer(resource, obj, settings.edgeIsDefault, opts, !!reasons)
      if (desired !== undefined && !jsonEqual(currentIngress(obj), desired))
        actions.push({ type: 'updateStatus', resource, object: withLoadBalancer(obj, desired) })
      // What it said last of an Ingress it does not serve, so that it says it once for each reason.
      const remembered =
        isIngress && memory.get(k) !== said ? memoryChanges(memory, [[k, said]]) : undefined
      return withMemory({ actions }, remembered)
    },
  }
}
