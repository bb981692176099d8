/**
 * The fields kube-apiserver v1.32 keeps fixed once an object exists, kind by kind, as their
 * ValidateXxxUpdate functions refuse a change to them (with upstream's paths and messages). A
 * kind not listed here has no such field, or keeps it elsewhere: PersistentVolumes, claims and
 * StorageClasses in storage/validate.ts, RBAC bindings, PriorityClasses and CRDs beside their
 * validation, Service cluster IPs in service-ips.ts, a CSR's spec in its strategy.
 */
import type { KubeObject } from '../../apimachinery/types'
import { forbidden, invalid, type FieldCause } from '../../apimachinery/field-errors'
import { asRecord, type Json } from '../../apimachinery/json-value'
import { goStringSlice } from '../../apimachinery/go-format'
import { semanticEqual } from './semantic'
import { validateJobUpdate } from './job-update'
import { immutableField, immutableSelector } from './validate-immutable'
import { validatePodUpdate } from './pod-update'

type UpdateRule = (old: KubeObject, next: KubeObject) => FieldCause[]

const spec = (o: KubeObject) => asRecord(o.spec)
const immutableWhenSet = 'field is immutable when `immutable` is set'

/** ValidateConfigMapUpdate and ValidateSecretUpdate: an immutable object keeps its data, and stays immutable. */
function keepsImmutableData(fields: string[]): UpdateRule {
  return (old, next) => {
    if (old.immutable !== true) return []
    const causes: FieldCause[] = []
    if (next.immutable !== true) causes.push(forbidden('immutable', immutableWhenSet))
    for (const f of fields)
      if (!semanticEqual(old[f], next[f])) causes.push(forbidden(f, immutableWhenSet))
    return causes
  }
}

/** ValidateStatefulSetUpdate: only these spec fields may change. */
const statefulSetMutable = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
]

function validateStatefulSetUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const fixed = (o: KubeObject) =>
    Object.fromEntries(Object.entries(spec(o)).filter(([k]) => !statefulSetMutable.includes(k)))
  if (semanticEqual(fixed(old), fixed(next))) return []
  return [
    forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ]
}

/** apps/v1 Deployment, ReplicaSet and DaemonSet: the selector is fixed. */
const selectorFixed: UpdateRule = (old, next) =>
  immutableSelector('spec.selector', spec(next).selector, spec(old).selector)

/** ValidateNodeUpdate: pod CIDRs once assigned, a set providerID, and externalID. */
function validateNodeUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const a = spec(old)
  const b = spec(next)
  const causes: FieldCause[] = []
  const cidrs = (s: Json) => ({ podCIDR: s.podCIDR, podCIDRs: s.podCIDRs })
  const assigned = !!a.podCIDR || (Array.isArray(a.podCIDRs) && a.podCIDRs.length > 0)
  if (assigned && !semanticEqual(cidrs(a), cidrs(b)))
    causes.push(
      forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'),
    )
  if (a.providerID && a.providerID !== b.providerID)
    causes.push(
      forbidden(
        'spec.providerID',
        'node updates may not change providerID except from "" to valid',
      ),
    )
  if ((a.externalID ?? '') !== (b.externalID ?? ''))
    causes.push(forbidden('spec.externalID', 'may not be updated'))
  return causes
}

/** validateLoadBalancerClassField: a LoadBalancer Service keeps its class while it stays one. */
function validateServiceUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const a = spec(old)
  const b = spec(next)
  if (
    a.type !== 'LoadBalancer' ||
    b.type !== 'LoadBalancer' ||
    (a.loadBalancerClass ?? null) === (b.loadBalancerClass ?? null)
  )
    return []
  return [invalid('spec.loadBalancerClass', b.loadBalancerClass ?? null, 'may not change once set')]
}

/** ValidateResourceQuotaUpdate: the set of scopes is fixed. */
function validateResourceQuotaUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const scopes = (o: KubeObject) =>
    [...new Set(Array.isArray(spec(o).scopes) ? (spec(o).scopes as string[]) : [])].sort()
  if (semanticEqual(scopes(old), scopes(next))) return []
  const wanted = spec(next).scopes
  const display = Array.isArray(wanted)
    ? goStringSlice(wanted as string[]).replace('[]string', '[]core.ResourceQuotaScope')
    : '[]core.ResourceQuotaScope(nil)'
  return [invalid('spec.scopes', wanted ?? null, 'field is immutable', display)]
}

/** ValidateCSIDriverUpdate: attachRequired (defaulting to true) and the lifecycle modes (to Persistent). */
function validateCsiDriverUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const attach = (o: KubeObject) => spec(o).attachRequired ?? true
  const modes = (o: KubeObject) => spec(o).volumeLifecycleModes ?? ['Persistent']
  const shown = modes(next)
  const display = Array.isArray(shown)
    ? goStringSlice(shown as string[]).replace('[]string', '[]storage.VolumeLifecycleMode')
    : undefined
  return [
    ...immutableField('spec.attachedRequired', attach(next), attach(old)),
    ...immutableField('spec.volumeLifecycleModes', shown, modes(old), display),
  ]
}

/** The update rules, by `group/kind`. */
const rules = new Map<string, UpdateRule>([
  ['/Pod', validatePodUpdate],
  ['/ConfigMap', keepsImmutableData(['data', 'binaryData'])],
  [
    '/Secret',
    (old, next) => [
      ...immutableField('type', next.type, old.type),
      ...keepsImmutableData(['data'])(old, next),
    ],
  ],
  ['/Node', validateNodeUpdate],
  ['/Service', validateServiceUpdate],
  ['/ResourceQuota', validateResourceQuotaUpdate],
  ['apps/Deployment', selectorFixed],
  ['apps/ReplicaSet', selectorFixed],
  ['apps/DaemonSet', selectorFixed],
  ['apps/StatefulSet', validateStatefulSetUpdate],
  ['apps/ControllerRevision', (old, next) => immutableField('data', next.data, old.data)],
  ['batch/Job', validateJobUpdate],
  [
    'discovery.k8s.io/EndpointSlice',
    (old, next) => immutableField('addressType', next.addressType, old.addressType),
  ],
  [
    'networking.k8s.io/IngressClass',
    (old, next) => immutableField('spec.controller', spec(next).controller, spec(old).controller),
  ],
  ['node.k8s.io/RuntimeClass', (old, next) => immutableField('handler', next.handler, old.handler)],
  ['storage.k8s.io/CSIDriver', validateCsiDriverUpdate],
])

/** The kinds with update rules here, as `group/kind`. */
export const kindsWithFixedFields: readonly string[] = [...rules.keys()]

/** The causes refusing an update of a built-in kind's main resource for changing a fixed field. */
export function validateFixedFields(
  group: string,
  kind: string,
  old: KubeObject,
  next: KubeObject,
): FieldCause[] {
  return rules.get(`${group}/${kind}`)?.(old, next) ?? []
}
