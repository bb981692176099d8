/**
 * Validation of PersistentVolume, PersistentVolumeClaim, StorageClass and CSIDriver as
 * kube-apiserver v1.32 validates them (pkg/apis/core/validation, pkg/apis/storage/validation),
 * with upstream's field paths and messages, for create and for update.
 */
import type { KubeObject } from '../../apimachinery/types'
import {
  forbidden,
  invalid,
  notSupported,
  required,
  type FieldCause,
} from '../../apimachinery/field-errors'
import {
  validateDns1123Subdomain,
  validateLabels,
  validateQualifiedName,
} from '../../apimachinery/field-formats'
import { parseBytes, QuantityError } from '../../apimachinery/quantity'
import { asRecord as rec, type Json } from '../../apimachinery/json-value'

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

export const accessModes = [
  'ReadOnlyMany',
  'ReadWriteMany',
  'ReadWriteOnce',
  'ReadWriteOncePod',
] as const
const volumeModes = ['Block', 'Filesystem']

/** The volume source fields of a PersistentVolumeSpec (upstream's persistentvolumesource one-of). */
export const pvSources = [
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'hostPath',
  'glusterfs',
  'nfs',
  'rbd',
  'iscsi',
  'cinder',
  'cephfs',
  'fc',
  'flocker',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'local',
  'storageos',
  'csi',
] as const

function validateAccessModes(modes: unknown[], field: string, what: string): FieldCause[] {
  const causes: FieldCause[] = []
  if (modes.length === 0) causes.push(required(field, what))
  for (const m of modes)
    if (!(accessModes as readonly string[]).includes(String(m)))
      causes.push(notSupported(field, m, accessModes))
  if (modes.includes('ReadWriteOncePod') && modes.length > 1)
    causes.push(forbidden(field, 'may not use ReadWriteOncePod with other access modes'))
  return causes
}

function quantityCause(value: unknown, field: string, positive: boolean): FieldCause[] {
  try {
    const n = parseBytes(value as string)
    if (n < 0) return [invalid(field, value, 'must be greater than or equal to 0')]
    if (positive && n === 0) return [invalid(field, value, 'must be greater than zero')]
  } catch (e) {
    if (e instanceof QuantityError)
      return [
        invalid(
          field,
          value,
          "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        ),
      ]
    throw e
  }
  return []
}

function validateNodeSelectorTerms(required_: Json, field: string): FieldCause[] {
  const terms = arr(required_.nodeSelectorTerms)
  if (terms.length === 0)
    return [required(`${field}.nodeSelectorTerms`, 'must have at least one node selector term')]
  const causes: FieldCause[] = []
  terms.forEach((t, i) => {
    arr(rec(t).matchExpressions).forEach((e, j) => {
      const at = `${field}.nodeSelectorTerms[${i}].matchExpressions[${j}]`
      const expr = rec(e)
      const op = String(expr.operator ?? '')
      const values = arr(expr.values)
      causes.push(...validateQualifiedName(String(expr.key ?? ''), `${at}.key`))
      if ((op === 'In' || op === 'NotIn') && values.length === 0)
        causes.push(
          required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"),
        )
      else if ((op === 'Exists' || op === 'DoesNotExist') && values.length > 0)
        causes.push(
          forbidden(
            `${at}.values`,
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        )
      else if (!['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'].includes(op))
        causes.push(
          notSupported(`${at}.operator`, op, ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn']),
        )
    })
  })
  return causes
}

/** ValidatePersistentVolumeSpec: access modes, capacity, one volume source, reclaim policy, node affinity. */
export function validatePersistentVolume(pv: KubeObject): FieldCause[] {
  const spec = rec(pv.spec)
  const causes: FieldCause[] = []
  causes.push(
    ...validateAccessModes(
      arr(spec.accessModes),
      'spec.accessModes',
      'must specify at least 1 access mode',
    ),
  )
  const capacity = rec(spec.capacity)
  if (Object.keys(capacity).length === 0) causes.push(required('spec.capacity'))
  for (const [k, v] of Object.entries(capacity)) {
    if (k !== 'storage') causes.push(notSupported('spec.capacity', k, ['storage']))
    else causes.push(...quantityCause(v, 'spec.capacity[storage]', true))
  }
  const policy = spec.persistentVolumeReclaimPolicy
  if (policy !== undefined && !['Delete', 'Recycle', 'Retain'].includes(String(policy)))
    causes.push(
      notSupported('spec.persistentVolumeReclaimPolicy', policy, ['Delete', 'Recycle', 'Retain']),
    )
  if (typeof spec.storageClassName === 'string' && spec.storageClassName)
    causes.push(...validateDns1123Subdomain(spec.storageClassName, 'spec.storageClassName'))
  if (spec.volumeMode !== undefined && !volumeModes.includes(String(spec.volumeMode)))
    causes.push(notSupported('spec.volumeMode', spec.volumeMode, volumeModes))
  const sources = pvSources.filter((s) => spec[s] !== undefined && spec[s] !== null)
  if (sources.length === 0) causes.push(required('spec', 'must specify a volume type'))
  for (const s of sources.slice(1))
    causes.push(forbidden(`spec.${s}`, 'may not specify more than 1 volume type'))
  if (spec.hostPath !== undefined) {
    const path = String(rec(spec.hostPath).path ?? '')
    if (!path) causes.push(required('spec.hostPath.path'))
    else if (path.split('/').includes('..'))
      causes.push(invalid('spec.hostPath.path', path, "must not contain '..'"))
    if (path === '/' && policy === 'Recycle')
      causes.push(
        forbidden(
          'spec.persistentVolumeReclaimPolicy',
          "may not be 'recycle' for a hostPath mount of '/'",
        ),
      )
  }
  const affinity = rec(spec.nodeAffinity)
  if (spec.local !== undefined) {
    const path = String(rec(spec.local).path ?? '')
    if (!path) causes.push(required('spec.local.path'))
    else if (path.split('/').includes('..'))
      causes.push(invalid('spec.local.path', path, "must not contain '..'"))
    if (spec.nodeAffinity === undefined)
      causes.push(required('spec.nodeAffinity', 'Local volume requires node affinity'))
  }
  if (spec.nodeAffinity !== undefined) {
    if (affinity.required === undefined)
      causes.push(required('spec.nodeAffinity.required', 'must specify required node constraints'))
    else
      causes.push(
        ...validateNodeSelectorTerms(rec(affinity.required), 'spec.nodeAffinity.required'),
      )
  }
  if (spec.csi !== undefined) {
    const csi = rec(spec.csi)
    if (!csi.driver) causes.push(required('spec.csi.driver'))
    if (!csi.volumeHandle) causes.push(required('spec.csi.volumeHandle'))
  }
  return causes
}

/** ValidatePersistentVolumeUpdate: the volume source and a set node affinity are immutable. */
export function validatePersistentVolumeUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const a = rec(old.spec)
  const b = rec(next.spec)
  const causes: FieldCause[] = []
  const source = (s: Json) => JSON.stringify(pvSources.map((k) => s[k] ?? null))
  if (source(a) !== source(b))
    causes.push(
      forbidden(
        'spec.persistentvolumesource',
        'spec.persistentvolumesource is immutable after creation',
      ),
    )
  if (
    a.nodeAffinity !== undefined &&
    JSON.stringify(a.nodeAffinity) !== JSON.stringify(b.nodeAffinity)
  )
    causes.push(invalid('spec.nodeAffinity', b.nodeAffinity ?? null, 'field is immutable'))
  if ((a.volumeMode ?? 'Filesystem') !== (b.volumeMode ?? 'Filesystem'))
    causes.push(invalid('spec.volumeMode', b.volumeMode ?? null, 'field is immutable'))
  return causes
}

/** ValidatePersistentVolumeClaimSpec: access modes, a storage request, selector, class and mode. */
export function validatePersistentVolumeClaim(pvc: KubeObject): FieldCause[] {
  const spec = rec(pvc.spec)
  const causes = validateAccessModes(
    arr(spec.accessModes),
    'spec.accessModes',
    'at least 1 access mode is required',
  )
  const requests = rec(rec(spec.resources).requests)
  if (requests.storage === undefined) causes.push(required('spec.resources[storage]'))
  else causes.push(...quantityCause(requests.storage, 'spec.resources[storage]', true))
  const selector = rec(spec.selector)
  if (spec.selector !== undefined)
    causes.push(
      ...validateLabels(
        rec(selector.matchLabels) as Record<string, string>,
        'spec.selector.matchLabels',
      ),
    )
  if (typeof spec.storageClassName === 'string' && spec.storageClassName)
    causes.push(...validateDns1123Subdomain(spec.storageClassName, 'spec.storageClassName'))
  if (spec.volumeMode !== undefined && !volumeModes.includes(String(spec.volumeMode)))
    causes.push(notSupported('spec.volumeMode', spec.volumeMode, volumeModes))
  return causes
}

/**
 * ValidatePersistentVolumeClaimUpdate: the spec is immutable but for the binder setting
 * `volumeName` once. Resizing needs a volume plugin that can expand, which no class here has.
 */
export function validatePersistentVolumeClaimUpdate(
  old: KubeObject,
  next: KubeObject,
): FieldCause[] {
  const a = { ...rec(old.spec) }
  const b = { ...rec(next.spec) }
  if (!a.volumeName) {
    delete a.volumeName
    delete b.volumeName
  }
  // A class set on a claim that had none is the DefaultStorageClass's late assignment, allowed upstream.
  if (a.storageClassName === undefined) delete b.storageClassName
  if (JSON.stringify(a) === JSON.stringify(b)) return []
  return [
    forbidden(
      'spec',
      'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    ),
  ]
}

const reclaimPolicies = ['Delete', 'Retain']
const bindingModes = ['Immediate', 'WaitForFirstConsumer']

/** ValidateStorageClass: a provisioner, supported reclaim policy and binding mode, topologies. */
export function validateStorageClass(sc: KubeObject): FieldCause[] {
  const causes: FieldCause[] = []
  const provisioner = typeof sc.provisioner === 'string' ? sc.provisioner : ''
  if (!provisioner) causes.push(required('provisioner'))
  else causes.push(...validateQualifiedName(provisioner.toLowerCase(), 'provisioner'))
  const params = rec(sc.parameters)
  if (Object.keys(params).length > 512)
    causes.push(
      invalid(
        'parameters',
        '',
        'Provisioner Parameters exceed the maximum allowed number of parameters (512)',
      ),
    )
  if (sc.reclaimPolicy !== undefined && !reclaimPolicies.includes(String(sc.reclaimPolicy)))
    causes.push(notSupported('reclaimPolicy', sc.reclaimPolicy, reclaimPolicies))
  if (sc.volumeBindingMode !== undefined && !bindingModes.includes(String(sc.volumeBindingMode)))
    causes.push(notSupported('volumeBindingMode', sc.volumeBindingMode, bindingModes))
  arr(sc.allowedTopologies).forEach((t, i) => {
    const exprs = arr(rec(t).matchLabelExpressions)
    if (exprs.length === 0)
      causes.push(
        required(
          `allowedTopologies[${i}].matchLabelExpressions`,
          'must contain at least one key/value pair',
        ),
      )
    exprs.forEach((e, j) => {
      const at = `allowedTopologies[${i}].matchLabelExpressions[${j}]`
      causes.push(...validateQualifiedName(String(rec(e).key ?? ''), `${at}.key`))
      if (arr(rec(e).values).length === 0)
        causes.push(required(`${at}.values`, 'must specify as least one value'))
    })
  })
  return causes
}

/** ValidateStorageClassUpdate: provisioner, parameters, reclaim policy and binding mode are fixed. */
export function validateStorageClassUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const causes: FieldCause[] = []
  if (JSON.stringify(old.parameters ?? {}) !== JSON.stringify(next.parameters ?? {}))
    causes.push(forbidden('parameters', 'updates to parameters are forbidden.'))
  if (old.provisioner !== next.provisioner)
    causes.push(forbidden('provisioner', 'updates to provisioner are forbidden.'))
  if ((old.reclaimPolicy ?? 'Delete') !== (next.reclaimPolicy ?? 'Delete'))
    causes.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'))
  if ((old.volumeBindingMode ?? 'Immediate') !== (next.volumeBindingMode ?? 'Immediate'))
    causes.push(invalid('volumeBindingMode', next.volumeBindingMode ?? null, 'field is immutable'))
  return causes
}

/** ValidateCSIDriver: lifecycle modes, fsGroupPolicy, token request audiences. */
export function validateCsiDriver(driver: KubeObject): FieldCause[] {
  const spec = rec(driver.spec)
  const causes: FieldCause[] = []
  if (driver.spec === undefined) causes.push(required('spec'))
  arr(spec.volumeLifecycleModes).forEach((m, i) => {
    if (!['Persistent', 'Ephemeral'].includes(String(m)))
      causes.push(notSupported(`spec.volumeLifecycleModes[${i}]`, m, ['Ephemeral', 'Persistent']))
  })
  const policies = ['File', 'None', 'ReadWriteOnceWithFSType']
  if (spec.fsGroupPolicy !== undefined && !policies.includes(String(spec.fsGroupPolicy)))
    causes.push(notSupported('spec.fsGroupPolicy', spec.fsGroupPolicy, policies))
  const audiences = new Set<string>()
  arr(spec.tokenRequests).forEach((t, i) => {
    const audience = String(rec(t).audience ?? '')
    if (audiences.has(audience))
      causes.push(
        invalid(
          `spec.tokenRequests[${i}].audience`,
          audience,
          `audience ${JSON.stringify(audience)} appears multiple times`,
        ),
      )
    audiences.add(audience)
    const exp = rec(t).expirationSeconds
    if (typeof exp === 'number' && exp < 600)
      causes.push(
        invalid(
          `spec.tokenRequests[${i}].expirationSeconds`,
          exp,
          'may not specify a duration less than 10 minutes',
        ),
      )
  })
  return causes
}
