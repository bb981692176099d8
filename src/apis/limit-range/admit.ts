/**
 * The LimitRanger admission plugin for pods (plugin/pkg/admission/limitranger): Container items
 * default each container's requests and limits, then Container and Pod items enforce min, max
 * and maxLimitRequestRatio, with upstream's messages.
 */
import type { KubeObject } from '../../apimachinery/types'
import {
  formatQuantity,
  quantityListOf,
  quantityMilli,
  quantityOf,
  type Quantity,
  type QuantityList,
} from '../../apimachinery/quantity'
import { podAmounts } from '../quota/usage'
import { asRecord, objectsOf, type Json } from '../../apimachinery/json-value'

export const limitRangerAnnotation = 'kubernetes.io/limit-ranger'

const items = (lr: KubeObject): Json[] => objectsOf(asRecord(lr.spec).limits)

/** The raw JSON values (kept as written) of a ResourceList field, for values that parse. */
function rawList(v: unknown): Record<string, string | number> {
  const out: Record<string, string | number> = {}
  for (const [k, q] of Object.entries(asRecord(v)))
    if (quantityOf(q) && (typeof q === 'string' || typeof q === 'number')) out[k] = q
  return out
}

/** defaultContainerResourceRequirements: the Container items' default limits and default requests. */
function containerDefaults(lr: KubeObject): {
  requests: Record<string, string | number>
  limits: Record<string, string | number>
} {
  const requests: Record<string, string | number> = {}
  const limits: Record<string, string | number> = {}
  for (const item of items(lr)) {
    if (item.type !== 'Container') continue
    Object.assign(requests, rawList(item.defaultRequest))
    Object.assign(limits, rawList(item.default))
  }
  return { requests, limits }
}

/**
 * mergeContainerResources over every container: a missing limit takes the default limit, a
 * missing request the default request (or, as pod defaulting would have set it first, the
 * container's own limit). Returns the annotation parts naming what was set.
 */
function mergeContainer(
  container: Json,
  defaults: ReturnType<typeof containerDefaults>,
  prefix: string,
): string[] {
  const resources = asRecord(container.resources)
  const limits = { ...asRecord(resources.limits) }
  const requests = { ...asRecord(resources.requests) }
  const setLimits: string[] = []
  const setRequests: string[] = []
  for (const [k, v] of Object.entries(defaults.limits)) {
    if (!(k in limits)) {
      limits[k] = v
      setLimits.push(k)
    }
  }
  for (const [k, v] of Object.entries(defaults.requests)) {
    if (!(k in requests)) {
      requests[k] = k in asRecord(resources.limits) ? asRecord(resources.limits)[k] : v
      setRequests.push(k)
    }
  }
  if (setLimits.length || setRequests.length)
    container.resources = { ...resources, limits, requests }
  const parts: string[] = []
  if (setRequests.length)
    parts.push(
      `${setRequests.sort().join(', ')} request for ${prefix} ${String(container.name ?? '')}`,
    )
  if (setLimits.length)
    parts.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${String(container.name ?? '')}`)
  return parts
}

/** Admit: applies each LimitRange's container defaults to the pod (in place) and records them in the limit-ranger annotation. */
export function defaultPodResources(pod: KubeObject, limitRanges: readonly KubeObject[]): void {
  // The spec may be shared with a caller's cached template: defaults go into a copy.
  if (pod.spec && typeof pod.spec === 'object') pod.spec = structuredClone(pod.spec)
  const spec = asRecord(pod.spec)
  for (const lr of limitRanges) {
    const defaults = containerDefaults(lr)
    if (!Object.keys(defaults.limits).length && !Object.keys(defaults.requests).length) continue
    const parts: string[] = []
    for (const c of objectsOf(spec.containers))
      parts.push(...mergeContainer(c, defaults, 'container'))
    for (const c of objectsOf(spec.initContainers))
      parts.push(...mergeContainer(c, defaults, 'init container'))
    if (parts.length)
      pod.metadata.annotations = {
        ...(pod.metadata.annotations ?? {}),
        [limitRangerAnnotation]: `LimitRanger plugin set: ${parts.join('; ')}`,
      }
  }
}

function minConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  requests: QuantityList,
  limits: QuantityList,
): string | undefined {
  const req = requests[name]
  const lim = limits[name]
  const e = formatQuantity(enforced)
  if (!req) return `minimum ${name} usage per ${type} is ${e}.  No request is specified`
  if (quantityMilli(req) < quantityMilli(enforced))
    return `minimum ${name} usage per ${type} is ${e}, but request is ${formatQuantity(req)}`
  if (lim && quantityMilli(lim) < quantityMilli(enforced))
    return `minimum ${name} usage per ${type} is ${e}, but limit is ${formatQuantity(lim)}`
  return undefined
}

function maxConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  requests: QuantityList,
  limits: QuantityList,
): string | undefined {
  const req = requests[name]
  const lim = limits[name]
  const e = formatQuantity(enforced)
  if (!lim) return `maximum ${name} usage per ${type} is ${e}.  No limit is specified`
  if (quantityMilli(lim) > quantityMilli(enforced))
    return `maximum ${name} usage per ${type} is ${e}, but limit is ${formatQuantity(lim)}`
  if (req && quantityMilli(req) > quantityMilli(enforced))
    return `maximum ${name} usage per ${type} is ${e}, but request is ${formatQuantity(req)}`
  return undefined
}

function ratioConstraint(
  type: string,
  name: string,
  enforced: Quantity,
  requests: QuantityList,
  limits: QuantityList,
): string | undefined {
  const req = requests[name]
  const lim = limits[name]
  const e = formatQuantity(enforced)
  if (!req || quantityMilli(req) === 0n)
    return `${name} max limit to request ratio per ${type} is ${e}, but no request is specified or request is 0`
  if (!lim || quantityMilli(lim) === 0n)
    return `${name} max limit to request ratio per ${type} is ${e}, but no limit is specified or limit is 0`
  const ratio = Number(quantityMilli(lim)) / Number(quantityMilli(req))
  if (ratio * 1000 > Number(quantityMilli(enforced)))
    return `${name} max limit to request ratio per ${type} is ${e}, but provided ratio is ${ratio.toFixed(6)}`
  return undefined
}

/** The min, max and ratio checks of one item against one set of requests and limits. */
function checkItem(
  item: Json,
  type: string,
  requests: QuantityList,
  limits: QuantityList,
): string[] {
  const errs: string[] = []
  for (const [k, q] of Object.entries(quantityListOf(item.min)))
    errs.push(minConstraint(type, k, q, requests, limits) ?? '')
  for (const [k, q] of Object.entries(quantityListOf(item.max)))
    errs.push(maxConstraint(type, k, q, requests, limits) ?? '')
  for (const [k, q] of Object.entries(quantityListOf(item.maxLimitRequestRatio)))
    errs.push(ratioConstraint(type, k, q, requests, limits) ?? '')
  return errs.filter(Boolean)
}

/**
 * Validate: every LimitRange's Container items against each container and init container, its
 * Pod items against the pod's totals. Returns the aggregate error text (`a` or `[a, b]`), or
 * undefined when the pod fits.
 */
export function podLimitRangeError(
  pod: KubeObject,
  limitRanges: readonly KubeObject[],
): string | undefined {
  const spec = asRecord(pod.spec)
  const errs: string[] = []
  for (const lr of limitRanges) {
    for (const item of items(lr)) {
      if (item.type === 'Container') {
        for (const c of [...objectsOf(spec.containers), ...objectsOf(spec.initContainers)]) {
          const resources = asRecord(c.resources)
          errs.push(
            ...checkItem(
              item,
              'Container',
              quantityListOf(resources.requests),
              quantityListOf(resources.limits),
            ),
          )
        }
      } else if (item.type === 'Pod') {
        errs.push(
          ...checkItem(item, 'Pod', podAmounts(spec, 'requests'), podAmounts(spec, 'limits')),
        )
      }
    }
  }
  if (!errs.length) return undefined
  return errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`
}
