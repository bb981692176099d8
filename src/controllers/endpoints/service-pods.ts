import type { KubeObject } from '../../apimachinery/types'
import { matchesLabels, selectorFromSet } from '../../apimachinery/labels'
import { pods, services } from '../resources'
import type { Cache } from '../runtime/types'
import { podPhase } from '../shared/pods'
import { asRecord, type Json } from '../../apimachinery/json-value'
import type { Fields } from '../runtime/fields'

/** How Services select pods, shared by the Endpoints and EndpointSlice controllers. */

export function serviceSpec(svc: KubeObject): Json {
  return asRecord(svc.spec)
}

/** The selector map, or undefined for a service without one (its endpoints are managed by hand). */
export function serviceSelector(svc: KubeObject): Record<string, string> | undefined {
  const selector = serviceSpec(svc).selector
  return selector && typeof selector === 'object' && !Array.isArray(selector)
    ? (selector as Record<string, string>)
    : undefined
}

/** Whether a controller fills in this service's endpoints: it has a selector and is not ExternalName. */
export function isManagedService(svc: KubeObject): boolean {
  return serviceSpec(svc).type !== 'ExternalName' && serviceSelector(svc) !== undefined
}

/** helper.IsServiceIPSet is false: the service has no cluster IP (headless). */
export function isHeadless(svc: KubeObject): boolean {
  const ip = serviceSpec(svc).clusterIP
  return ip === 'None' || ip === '' || ip === undefined
}

export function publishNotReadyAddresses(svc: KubeObject): boolean {
  return serviceSpec(svc).publishNotReadyAddresses === true
}

/** The pods in the service's namespace its selector matches (an empty selector matches all, as labels.Set{} does). */
export function podsOfService(svc: KubeObject, cache: Cache): KubeObject[] {
  const selector = serviceSelector(svc)
  if (!selector) return []
  const sel = selectorFromSet(selector)
  return cache
    .list(pods, svc.metadata.namespace ?? '')
    .filter((p) => matchesLabels(sel, p.metadata.labels))
}

/** getPodServiceMemberships: the services in the pod's namespace whose selector matches it. */
export function servicesOfPod(pod: KubeObject, cache: Cache): KubeObject[] {
  return cache.list(services, pod.metadata.namespace ?? '').filter((svc) => {
    const selector = serviceSelector(svc)
    return selector !== undefined && matchesLabels(selectorFromSet(selector), pod.metadata.labels)
  })
}

/** The pod's primary IP (status.podIP, else the first of status.podIPs). */
export function podIP(pod: KubeObject): string {
  const status = asRecord(pod.status)
  if (typeof status.podIP === 'string' && status.podIP) return status.podIP
  const first = Array.isArray(status.podIPs) ? asRecord(status.podIPs[0]).ip : undefined
  return typeof first === 'string' ? first : ''
}

/**
 * endpointsliceutil.ShouldPodBeInEndpoints: not finished, has an IP, and (unless terminating pods
 * are wanted) not being deleted.
 */
export function shouldPodBeInEndpoints(pod: KubeObject, includeTerminating: boolean): boolean {
  const phase = podPhase(pod)
  if (phase === 'Succeeded' || phase === 'Failed') return false
  if (!podIP(pod)) return false
  return includeTerminating || !pod.metadata.deletionTimestamp
}

/** endpointsliceutil.ShouldSetHostname: the pod names this service as its subdomain. */
export function hostnameFor(pod: KubeObject, svc: KubeObject): string | undefined {
  const spec = asRecord(pod.spec)
  const hostname = typeof spec.hostname === 'string' ? spec.hostname : ''
  if (
    !hostname ||
    spec.subdomain !== svc.metadata.name ||
    pod.metadata.namespace !== svc.metadata.namespace
  )
    return undefined
  return hostname
}

/** The targetRef of an address: the pod, without its resourceVersion so pod updates cause no churn. */
export function podReference(pod: KubeObject): Json {
  return {
    kind: 'Pod',
    namespace: pod.metadata.namespace,
    name: pod.metadata.name,
    uid: pod.metadata.uid,
  }
}

/** What the Endpoints and EndpointSlice controllers read of a pod beside the shared predicates' fields (podIP, hostnameFor, findPort). */
export const endpointPodReads: Fields = {
  spec: {
    hostname: true,
    subdomain: true,
    containers: { ports: true },
    initContainers: { restartPolicy: true, ports: true },
  },
  status: { podIP: true, podIPs: true },
}
