import type { KubeObject } from '../apimachinery/types'
import { invalid, type StoreResult } from '../apimachinery/status'
import { formatLabelSelector } from '../apimachinery/labels'
import type { ResourceDef } from './registry'

interface ScaleSpec {
  replicas?: number
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] }
}

/** The autoscaling/v1 Scale view of a workload, as `kubectl scale` reads and writes it. */
export function toScale(_def: ResourceDef, obj: KubeObject): KubeObject {
  const spec = (obj.spec ?? {}) as ScaleSpec
  const status = (obj.status ?? {}) as { replicas?: number }
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector: spec.selector ? formatLabelSelector(spec.selector as never) : '' },
  }
}

/** Carries a Scale's spec.replicas onto the workload. */
export function fromScale(obj: KubeObject, scale: KubeObject): StoreResult<KubeObject> {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    return {
      ok: false,
      status: invalid('autoscaling', 'Scale', obj.metadata.name ?? '', [
        { field: 'spec.replicas', reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(replicas ?? null)}: must be greater than or equal to 0` },
      ]),
    }
  }
  return { ok: true, value: { ...obj, spec: { ...(obj.spec as object), replicas } } }
}
