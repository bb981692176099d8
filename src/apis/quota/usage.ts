/**
 * What an object counts against a ResourceQuota, as kube-apiserver's quota evaluators count it
 * (pkg/quota/v1/evaluator/core): `count/<resource>[.<group>]` for every kind, the classic names
 * (pods, services, configmaps, secrets, persistentvolumeclaims, replicationcontrollers,
 * resourcequotas), and the compute resources of pods.
 */
import type { KubeObject } from '../../apimachinery/types'
import {
  addLists,
  countQuantity,
  quantityListOf,
  type QuantityList,
} from '../../apimachinery/quantity'
import type { ResourceDef } from '../resource-def'
import { asRecord, objectsOf, type Json } from '../../apimachinery/json-value'

const classicCounts = new Set([
  'pods',
  'services',
  'configmaps',
  'secrets',
  'persistentvolumeclaims',
  'replicationcontrollers',
  'resourcequotas',
])

/** `count/deployments.apps`, `count/pods`: the object-count name of a resource. */
export function objectCountName(def: Pick<ResourceDef, 'group' | 'plural'>): string {
  return def.group ? `count/${def.plural}.${def.group}` : `count/${def.plural}`
}

/** The containers' sum, or any init container's own need when larger, plus spec.overhead. */
export function podAmounts(spec: Json, field: 'requests' | 'limits'): QuantityList {
  let total: QuantityList = {}
  for (const c of objectsOf(spec.containers))
    total = addLists(total, quantityListOf(asRecord(c.resources)[field]))
  for (const c of objectsOf(spec.initContainers)) {
    for (const [k, v] of Object.entries(quantityListOf(asRecord(c.resources)[field]))) {
      if (!total[k] || total[k]!.nanos < v.nanos) total[k] = v
    }
  }
  return addLists(total, quantityListOf(spec.overhead))
}

const computeNames = ['cpu', 'memory', 'ephemeral-storage'] as const
const isExtended = (name: string) =>
  name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.')

/** podComputeUsageHelper: pods, requests.* (and the bare names), limits.*, hugepages and extended resources. */
export function podComputeUsage(requests: QuantityList, limits: QuantityList): QuantityList {
  const out: QuantityList = { pods: countQuantity(1) }
  for (const name of computeNames) {
    if (requests[name]) out[name] = out[`requests.${name}`] = requests[name]!
    if (limits[name]) out[`limits.${name}`] = limits[name]!
  }
  for (const [name, q] of Object.entries(requests)) {
    if (name.startsWith('hugepages-')) out[name] = out[`requests.${name}`] = q
    if (isExtended(name)) out[`requests.${name}`] = q
  }
  return out
}

/** QuotaV1Pod: a pod counts its compute resources until it finishes or its grace period is over. */
export function podCountsCompute(pod: KubeObject, now: number): boolean {
  const phase = asRecord(pod.status).phase
  if (phase === 'Succeeded' || phase === 'Failed') return false
  const deletion = pod.metadata.deletionTimestamp
  if (deletion) {
    const grace = Number(pod.metadata.deletionGracePeriodSeconds ?? 0)
    if (Date.parse(deletion) + grace * 1000 < now) return false
  }
  return true
}

/** What a pod uses: count/pods always; pods and compute resources while it counts them. */
export function podUsage(pod: KubeObject, now: number): QuantityList {
  const out: QuantityList = { 'count/pods': countQuantity(1) }
  if (!podCountsCompute(pod, now)) return out
  const spec = asRecord(pod.spec)
  return { ...out, ...podComputeUsage(podAmounts(spec, 'requests'), podAmounts(spec, 'limits')) }
}

/** What a Service uses: services, services.loadbalancers, services.nodeports. */
function serviceUsage(svc: KubeObject): QuantityList {
  const spec = asRecord(svc.spec)
  const type = spec.type ?? 'ClusterIP'
  const out: QuantityList = {
    services: countQuantity(1),
    'services.loadbalancers': countQuantity(0),
    'services.nodeports': countQuantity(0),
  }
  if (type === 'LoadBalancer') out['services.loadbalancers'] = countQuantity(1)
  if (type === 'NodePort' || type === 'LoadBalancer')
    out['services.nodeports'] = countQuantity(objectsOf(spec.ports).length)
  return out
}

/** What a PersistentVolumeClaim uses: persistentvolumeclaims and requests.storage. */
function claimUsage(pvc: KubeObject): QuantityList {
  const out: QuantityList = { persistentvolumeclaims: countQuantity(1) }
  const storage = quantityListOf(asRecord(asRecord(pvc.spec).resources).requests).storage
  if (storage) out['requests.storage'] = storage
  return out
}

/** Everything an object of `def` counts against a quota (before intersecting with what the quota limits). */
export function objectUsage(
  def: Pick<ResourceDef, 'group' | 'plural'>,
  obj: KubeObject,
  now: number,
): QuantityList {
  const out: QuantityList = { [objectCountName(def)]: countQuantity(1) }
  if (def.group !== '') return out
  if (def.plural === 'pods') return { ...out, ...podUsage(obj, now) }
  if (def.plural === 'services') return { ...out, ...serviceUsage(obj) }
  if (def.plural === 'persistentvolumeclaims') return { ...out, ...claimUsage(obj) }
  if (classicCounts.has(def.plural)) out[def.plural] = countQuantity(1)
  return out
}

/** The resources whose presence on every container a quota of cpu or memory demands. */
const validationSet = new Set([
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
])

/**
 * The pod evaluator's Constraints: when a quota limits cpu or memory, every container must state
 * them. Returns upstream's `must specify …` text, or undefined.
 */
export function podConstraintError(
  pod: KubeObject,
  limited: readonly string[],
): string | undefined {
  const required = limited.filter((r) => validationSet.has(r))
  if (!required.length) return undefined
  const spec = asRecord(pod.spec)
  const missing = new Map<string, Set<string>>()
  for (const c of [...objectsOf(spec.containers), ...objectsOf(spec.initContainers)]) {
    const resources = asRecord(c.resources)
    const has = podComputeUsage(
      quantityListOf(resources.requests),
      quantityListOf(resources.limits),
    )
    for (const r of required) {
      if (has[r]) continue
      if (!missing.has(r)) missing.set(r, new Set())
      missing.get(r)!.add(String(c.name ?? ''))
    }
  }
  if (!missing.size) return undefined
  const parts = [...missing.keys()]
    .sort()
    .map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`)
  return `must specify ${parts.join('; ')}`
}

/** Pod QoS BestEffort: no container requests or limits cpu or memory. */
export function isBestEffort(pod: KubeObject): boolean {
  const spec = asRecord(pod.spec)
  for (const c of [...objectsOf(spec.containers), ...objectsOf(spec.initContainers)]) {
    const resources = asRecord(c.resources)
    for (const field of ['requests', 'limits']) {
      const list = quantityListOf(resources[field])
      if ((list.cpu && list.cpu.nanos !== 0n) || (list.memory && list.memory.nanos !== 0n))
        return false
    }
  }
  return true
}
