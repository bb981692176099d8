/**
 * The status fields kube-apiserver never leaves out. Upstream decodes every object into its Go
 * type and encodes it back, so a status field without `omitempty` (DaemonSet's four counts,
 * `replicas` of a ReplicaSet, StatefulSet or ReplicationController, a PodDisruptionBudget's counts,
 * a container status's `imageID`, a Node's `nodeInfo`) is written as its zero value when nobody
 * set it, and a struct-valued field (a Service's `status.loadBalancer`) as at least `{}`. The
 * official clients rely on it: the Python client refuses a whole response that lacks a field the
 * OpenAPI schema marks required. Applied to each object before it is stored (create, update and
 * status writes), so every read (get, list, watch) serves them.
 */
import type { FieldType } from '../apimachinery/schema-types'
import type { KubeObject } from '../apimachinery/types'
import type { ResourceDef } from './resource-def'
import { kindStruct, schemas } from './schema'

type Fields = Record<string, unknown>

const CORE = 'io.k8s.api.core.v1.'

/**
 * Fields the OpenAPI schema calls optional that the Go types still always write: a struct value
 * (written as `{}` at least) or a scalar without `omitempty`.
 */
const alwaysWritten: Record<string, Record<string, () => unknown>> = {
  'io.k8s.api.apps.v1.StatefulSetStatus': { availableReplicas: () => 0 },
  [`${CORE}ServiceStatus`]: { loadBalancer: () => ({}) },
  'io.k8s.api.networking.v1.IngressStatus': { loadBalancer: () => ({}) },
  [`${CORE}NodeStatus`]: { daemonEndpoints: () => ({}), nodeInfo: () => ({}) },
  [`${CORE}NodeDaemonEndpoints`]: { kubeletEndpoint: () => ({}) },
  [`${CORE}ContainerStatus`]: { state: () => ({}), lastState: () => ({}) },
}

/**
 * Gives the object every always-written status field it lacks, as its zero value. The status is
 * copied where it changes, never changed in place (it may be the stored object's).
 */
export function fillStatusZeroFields(
  def: Pick<ResourceDef, 'group' | 'version' | 'kind' | 'custom'>,
  obj: KubeObject,
): KubeObject {
  if (def.custom) return obj
  const kind = kindStruct(def.group, def.version, def.kind)
  const statusType = kind ? schemas[kind]?.fields.status?.type : undefined
  if (statusType?.kind !== 'ref') return obj
  const status = isFields(obj.status) ? obj.status : {}
  const filled = filledStruct(statusType.ref, status)
  if (filled !== obj.status) obj.status = filled
  return obj
}

/** The struct with its missing fields filled: the same value when none was missing. */
function filledStruct(name: string, value: Fields): Fields {
  const struct = schemas[name]
  if (!struct) return value
  let out = value
  const set = (field: string, v: unknown) => {
    if (out === value) out = { ...value }
    out[field] = v
  }
  const written = alwaysWritten[name] ?? {}
  for (const [field, def] of Object.entries(struct.fields)) {
    let current = out[field]
    if (current == null) {
      current = def.required ? zeroOf(def.type) : written[field]?.()
      if (current !== undefined) set(field, current)
    }
    const nested = filledNested(def.type, current)
    if (nested !== current) set(field, nested)
  }
  return out
}

/** The structs a field holds (itself, a list's items or a map's values), filled. */
function filledNested(type: FieldType, value: unknown): unknown {
  if (type.kind === 'ref') return isFields(value) ? filledStruct(type.ref, value) : value
  if (type.kind === 'list' && Array.isArray(value)) {
    const items = value.map((item) => filledNested(type.items, item))
    return items.some((item, i) => item !== value[i]) ? items : value
  }
  if (type.kind === 'map' && isFields(value)) {
    const entries = Object.entries(value).map(
      ([k, v]) => [k, filledNested(type.values, v)] as const,
    )
    return entries.some(([k, v]) => v !== value[k]) ? Object.fromEntries(entries) : value
  }
  return value
}

/**
 * Go's zero value as JSON: 0, "", false, and `{}` for a struct. A time is written as null and a
 * nil slice or map as null, which clients read as absent: those are left out.
 */
function zeroOf(type: FieldType): unknown {
  if (type.kind === 'ref') return {}
  if (type.kind !== 'scalar') return undefined
  if (type.scalar === 'integer' || type.scalar === 'number') return 0
  if (type.scalar === 'string') return ''
  if (type.scalar === 'boolean') return false
  return undefined
}

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
