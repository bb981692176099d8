/**
 * Quota admission's decision (plugin/pkg/admission/resourcequota): which quotas of the namespace
 * an object counts against, whether it fits each, and the `status.used` each quota must record
 * before the object may be stored.
 */
import type { KubeObject } from '../../apimachinery/types'
import {
  addQuantity,
  cmpQuantity,
  formatQuantity,
  quantityListOf,
  type QuantityList,
} from '../../apimachinery/quantity'
import type { ResourceDef } from '../resource-def'
import { isBestEffort, objectUsage, podConstraintError } from './usage'
import { isTrackedName } from './tracked'
import { asRecord, objectsOf } from '../../apimachinery/json-value'

/** One quota's new usage, to be written with the quota's resourceVersion as precondition. */
export interface QuotaCharge {
  quota: KubeObject
  used: QuantityList
}

export type QuotaDecision = { ok: true; charges: QuotaCharge[] } | { ok: false; message: string }

const podResource = (name: string) =>
  name === 'pods' ||
  name === 'count/pods' ||
  ['cpu', 'memory', 'ephemeral-storage'].includes(name) ||
  name.startsWith('requests.') ||
  name.startsWith('limits.') ||
  name.startsWith('hugepages-')

interface ScopeRequirement {
  scopeName: string
  operator: string
  values: string[]
}

/** The quota's scopes as selector requirements (a listed scope is `Exists`). */
function scopeRequirements(quota: KubeObject): ScopeRequirement[] {
  const spec = asRecord(quota.spec)
  const out: ScopeRequirement[] = (Array.isArray(spec.scopes) ? spec.scopes : []).map((s) => ({
    scopeName: String(s),
    operator: 'Exists',
    values: [],
  }))
  for (const e of objectsOf(asRecord(spec.scopeSelector).matchExpressions)) {
    out.push({
      scopeName: String(e.scopeName ?? ''),
      operator: String(e.operator ?? ''),
      values: Array.isArray(e.values) ? e.values.map(String) : [],
    })
  }
  return out
}

function crossNamespaceAffinity(pod: KubeObject): boolean {
  const affinity = asRecord(asRecord(pod.spec).affinity)
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = asRecord(affinity[kind])
    const terms = [
      ...objectsOf(a.requiredDuringSchedulingIgnoredDuringExecution),
      ...objectsOf(a.preferredDuringSchedulingIgnoredDuringExecution).map((w) =>
        asRecord(w.podAffinityTerm),
      ),
    ]
    if (
      terms.some(
        (t) =>
          (Array.isArray(t.namespaces) && t.namespaces.length > 0) ||
          t.namespaceSelector !== undefined,
      )
    )
      return true
  }
  return false
}

/** podMatchesScopeFunc: whether a pod is in one scope requirement. */
function podInScope(pod: KubeObject, r: ScopeRequirement): boolean {
  const spec = asRecord(pod.spec)
  switch (r.scopeName) {
    case 'Terminating':
      return typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0
    case 'NotTerminating':
      return !(typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0)
    case 'BestEffort':
      return isBestEffort(pod)
    case 'NotBestEffort':
      return !isBestEffort(pod)
    case 'CrossNamespacePodAffinity':
      return crossNamespaceAffinity(pod)
    case 'PriorityClass': {
      const name = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : ''
      if (r.operator === 'In') return r.values.includes(name)
      if (r.operator === 'NotIn') return !r.values.includes(name)
      if (r.operator === 'Exists') return name !== ''
      if (r.operator === 'DoesNotExist') return name === ''
      return false
    }
    default:
      return false
  }
}

/** Whether the quota's scopes select the object: only pods are in scopes; an unscoped quota selects all. */
export function quotaSelects(
  quota: KubeObject,
  def: Pick<ResourceDef, 'group' | 'plural'>,
  obj: KubeObject,
): boolean {
  const reqs = scopeRequirements(quota)
  if (!reqs.length) return true
  if (def.group !== '' || def.plural !== 'pods') return false
  return reqs.every((r) =>
    r.operator === 'DoesNotExist' && r.scopeName !== 'PriorityClass'
      ? !podInScope(obj, { ...r, operator: 'Exists' })
      : podInScope(obj, r),
  )
}

/** prettyPrint: `k=v` sorted by name, comma-separated. */
export function prettyList(list: QuantityList): string {
  return Object.keys(list)
    .sort()
    .map((k) => `${k}=${formatQuantity(list[k]!)}`)
    .join(',')
}

const mask = (list: QuantityList, names: readonly string[]): QuantityList =>
  Object.fromEntries(names.filter((n) => list[n]).map((n) => [n, list[n]!]))

/**
 * CheckRequest for a create: quotas in name order, each against `status.hard` and `status.used`
 * (a quota whose usage is not yet known refuses what it limits, as upstream). The first quota the
 * object would exceed refuses it with upstream's message.
 */
export function checkQuotas(
  def: Pick<ResourceDef, 'group' | 'plural'>,
  obj: KubeObject,
  quotas: readonly KubeObject[],
  now: number,
): QuotaDecision {
  const requested = objectUsage(def, obj, now)
  const isPod = def.group === '' && def.plural === 'pods'
  const charges: QuotaCharge[] = []
  for (const quota of [...quotas].sort((a, b) =>
    (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
  )) {
    if (!quotaSelects(quota, def, obj)) continue
    const status = asRecord(quota.status)
    const hard = quantityListOf(status.hard)
    const used = quantityListOf(status.used)
    const name = quota.metadata.name ?? ''
    const limited = Object.keys(hard).filter(
      (r) => isTrackedName(r) && (requested[r] !== undefined || (isPod && podResource(r))),
    )
    if (!limited.length) continue
    if (isPod) {
      const missing = podConstraintError(obj, limited)
      if (missing) return { ok: false, message: `failed quota: ${name}: ${missing}` }
    }
    const unknown = limited.filter((r) => !used[r]).sort()
    if (unknown.length)
      return {
        ok: false,
        message: `status unknown for quota: ${name}, resources: ${unknown.join(',')}`,
      }
    const charged = limited.filter((r) => requested[r] !== undefined)
    if (!charged.length) continue
    const next: QuantityList = { ...used }
    const exceeded: string[] = []
    for (const r of charged) {
      next[r] = addQuantity(used[r]!, requested[r]!)
      if (cmpQuantity(next[r]!, hard[r]!) > 0) exceeded.push(r)
    }
    if (exceeded.length) {
      return {
        ok: false,
        message: `exceeded quota: ${name}, requested: ${prettyList(mask(requested, exceeded))}, used: ${prettyList(mask(used, exceeded))}, limited: ${prettyList(mask(hard, exceeded))}`,
      }
    }
    charges.push({ quota, used: next })
  }
  return { ok: true, charges }
}
