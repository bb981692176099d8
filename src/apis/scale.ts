import type { KubeObject } from '../apimachinery/types'
import { invalid, type StoreResult } from '../apimachinery/status'
import { formatLabelSelector } from '../apimachinery/labels'
import type { ResourceDef } from './resource-def'
import { structTypeError } from './write-checks'
import { strategyOf } from './kind-strategies'

interface ScalePaths {
  specReplicasPath: string
  statusReplicasPath: string
  labelSelectorPath?: string
}

/** Built-in workloads keep replicas in spec and status and a structured selector in spec. */
const builtinPaths: ScalePaths = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
}

const steps = (path: string): string[] => path.split('.').filter(Boolean)

function read(obj: unknown, path: string): unknown {
  let node = obj
  for (const step of steps(path)) {
    if (!node || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[step]
  }
  return node
}

/** A copy of `obj` with the value at `path` set, objects along the way copied or created. */
function write(obj: KubeObject, path: string, value: unknown): KubeObject {
  const [head, ...rest] = steps(path)
  const set = (node: unknown, keys: string[]): unknown => {
    const record =
      node && typeof node === 'object' && !Array.isArray(node)
        ? { ...(node as Record<string, unknown>) }
        : {}
    const [key, ...more] = keys
    record[key!] = more.length ? set(record[key!], more) : value
    return record
  }
  return set(obj, [head!, ...rest]) as KubeObject
}

const pathsOf = (def: ResourceDef): ScalePaths => def.custom?.scale ?? builtinPaths

/** The autoscaling/v1 Scale view of a workload, as `kubectl scale` reads and writes it. */
export function toScale(def: ResourceDef, obj: KubeObject): KubeObject {
  const paths = pathsOf(def)
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: Number(read(obj, paths.specReplicasPath) ?? 0) },
    status: {
      replicas: Number(read(obj, paths.statusReplicasPath) ?? 0),
      selector: selectorOf(def, obj, paths),
    },
  }
}

/** status.selector: at the CRD's labelSelectorPath, else as the kind's strategy reads its spec.selector (a LabelSelector). */
function selectorOf(def: ResourceDef, obj: KubeObject, paths: ScalePaths): string {
  if (def.custom) {
    const s = paths.labelSelectorPath ? read(obj, paths.labelSelectorPath) : undefined
    return typeof s === 'string' ? s : ''
  }
  const own = strategyOf(def).scaleSelector
  if (own) return own(obj)
  const s = read(obj, '.spec.selector')
  return s ? formatLabelSelector(s as never) : ''
}

/** Carries a Scale's spec.replicas onto the workload. */
export function fromScale(
  def: ResourceDef,
  obj: KubeObject,
  scale: KubeObject,
): StoreResult<KubeObject> {
  const typeError = structTypeError(
    'io.k8s.api.autoscaling.v1.Scale',
    { kind: 'Scale', version: 'v1' },
    scale,
  )
  if (typeError) return { ok: false, status: typeError }
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    return {
      ok: false,
      status: invalid('autoscaling', 'Scale', obj.metadata.name ?? '', [
        {
          field: 'spec.replicas',
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(replicas ?? null)}: must be greater than or equal to 0`,
        },
      ]),
    }
  }
  return { ok: true, value: write(obj, pathsOf(def).specReplicasPath, replicas) }
}
