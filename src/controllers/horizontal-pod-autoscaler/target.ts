/** An autoscaler's scaleTargetRef resolved, as the HPA controller's REST mapping and scale client would. */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import { builtinResources } from '../../apis/registry'
import { toScale } from '../../apis/scale'
import { customResourceDefinitions, resourceDefOf } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { scalableKinds } from './resources'

export interface ScaleTarget {
  resource: ResourceRef
  name: string
  /** spec.replicas of the target's Scale */
  specReplicas: number
  /** status.selector of the target's Scale */
  selector: string
}

/** The target and its Scale, or the error the scale client would give. */
export type Resolved = { ok: true; target: ScaleTarget } | { ok: false; error: string }

export function resolveScaleTarget(hpa: KubeObject, cache: Cache): Resolved {
  const ref = asRecord(asRecord(hpa.spec).scaleTargetRef)
  const kind = String(ref.kind ?? '')
  const name = String(ref.name ?? '')
  const apiVersion = String(ref.apiVersion ?? '')
  const parts = apiVersion.split('/')
  if (parts.length > 2) return { ok: false, error: `unexpected GroupVersion string: ${apiVersion}` }
  const group = parts.length === 2 ? parts[0]! : ''
  const resource = scalableKinds.get(`${group}/${kind}`)
  if (!resource) return { ok: false, error: unscalable(group, kind, cache) }
  const obj = cache.get(resource, hpa.metadata.namespace, name)
  const def = resourceDefOf(resource)
  if (!obj)
    return { ok: false, error: `${def.plural}${group ? `.${group}` : ''} "${name}" not found` }
  const scale = toScale(def, obj)
  return {
    ok: true,
    target: {
      resource,
      name,
      specReplicas: Number(asRecord(scale.spec).replicas ?? 0),
      selector: String(asRecord(scale.status).selector ?? ''),
    },
  }
}

/** Why a kind without a scale the autoscaler reaches cannot be scaled. */
function unscalable(group: string, kind: string, cache: Cache): string {
  if (builtinResources.some((d) => d.group === group && d.kind === kind))
    return 'the server could not find the requested resource'
  const custom = cache
    .list(customResourceDefinitions)
    .some(
      (crd) =>
        asRecord(crd.spec).group === group && asRecord(asRecord(crd.spec).names).kind === kind,
    )
  if (custom)
    return `scaling custom resources (${kind}.${group}) is not served by this cluster's horizontal pod autoscaler`
  return `no matches for kind "${kind}" in group "${group}"`
}
