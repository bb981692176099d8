import type { KubeObject } from '../../apimachinery/types'

/** The parts of an apiextensions.k8s.io/v1 CustomResourceDefinition the server acts on. */
export interface CrdNames {
  plural?: string
  singular?: string
  kind?: string
  listKind?: string
  shortNames?: string[]
  categories?: string[]
}

export interface CrdVersion {
  name?: string
  served?: boolean
  storage?: boolean
  deprecated?: boolean
  schema?: { openAPIV3Schema?: Record<string, unknown> }
  subresources?: {
    status?: Record<string, never>
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string }
  }
  additionalPrinterColumns?: CrdColumn[]
}

/** An additionalPrinterColumns entry (validate-crd.ts requires its name, type and jsonPath). */
export interface CrdColumn {
  name?: string
  type?: string
  format?: string
  description?: string
  priority?: number
  jsonPath?: string
}

export interface CrdSpec {
  group?: string
  names?: CrdNames
  scope?: string
  versions?: CrdVersion[]
  conversion?: { strategy?: string }
  preserveUnknownFields?: boolean
}

export interface CrdCondition {
  type: string
  status: 'True' | 'False' | 'Unknown'
  lastTransitionTime?: string
  reason?: string
  message?: string
}

/** The finalizer that keeps a CRD until every object of its kind is gone. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io'

export const crdSpecOf = (crd: KubeObject): CrdSpec => (crd.spec ?? {}) as CrdSpec

export function conditionsOf(crd: KubeObject): CrdCondition[] {
  const c = (crd.status as { conditions?: unknown } | undefined)?.conditions
  return Array.isArray(c) ? (c as CrdCondition[]) : []
}

export const isEstablished = (crd: KubeObject): boolean =>
  conditionsOf(crd).some((c) => c.type === 'Established' && c.status === 'True')

export const storageVersionOf = (crd: KubeObject): string | undefined =>
  crdSpecOf(crd).versions?.find((v) => v.storage)?.name

/** spec.names with the defaults upstream fills: singular from the kind, listKind `<Kind>List`. */
export function acceptedNames(names: CrdNames = {}): CrdNames {
  const out: CrdNames = { ...names }
  if (names.kind) {
    out.singular ||= names.kind.toLowerCase()
    out.listKind ||= `${names.kind}List`
  }
  return out
}

/** Sets a condition, keeping its lastTransitionTime when its status does not change. */
export function setCondition(conditions: CrdCondition[], next: CrdCondition): CrdCondition[] {
  const old = conditions.find((c) => c.type === next.type)
  const merged =
    old && old.status === next.status
      ? { ...next, lastTransitionTime: old.lastTransitionTime }
      : next
  return [...conditions.filter((c) => c.type !== next.type), merged]
}

/**
 * The status the API server keeps for a CRD on every write: names accepted, the CRD Established
 * (it serves at once), and the storage version recorded in storedVersions.
 */
export function establishedStatus(crd: KubeObject, now: string): Record<string, unknown> {
  const status = { ...((crd.status ?? {}) as Record<string, unknown>) }
  let conditions = conditionsOf(crd)
  conditions = setCondition(conditions, {
    type: 'NamesAccepted',
    status: 'True',
    lastTransitionTime: now,
    reason: 'NoConflicts',
    message: 'no conflicts found',
  })
  conditions = setCondition(conditions, {
    type: 'Established',
    status: 'True',
    lastTransitionTime: now,
    reason: 'InitialNamesAccepted',
    message: 'the initial names have been accepted',
  })
  status.conditions = conditions
  status.acceptedNames = acceptedNames(crdSpecOf(crd).names)
  const stored = Array.isArray(status.storedVersions) ? (status.storedVersions as string[]) : []
  const storage = storageVersionOf(crd)
  status.storedVersions = storage && !stored.includes(storage) ? [...stored, storage] : stored
  return status
}
