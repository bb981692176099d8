/**
 * The strategy of a write through a subresource: the kind's own (pods/ephemeralcontainers,
 * namespaces/finalize, a CertificateSigningRequest's status and approval), else the generic one
 * every kind has for `status` and `scale`.
 */
import type { ResourceDef } from './resource-def'
import type { SubresourceStrategy } from './kind-strategy'
import { strategyOf } from './kind-strategies'
import { fillStatusZeroFields } from './status-zero-fields'
import { withStatusOf } from './status-write'
import { fromScale, toScale } from './scale'

const generic = new Map<string, (def: ResourceDef) => SubresourceStrategy>([
  // A status write changes the status alone, and is validated as one.
  [
    'status',
    (def) => ({
      prepareForUpdate: (old, incoming) => fillStatusZeroFields(def, withStatusOf(old, incoming)),
      validatesStatus: true,
      part: 'status',
    }),
  ],
  // The autoscaling/v1 Scale view of a workload's replicas.
  [
    'scale',
    (def) => ({
      view: (obj) => toScale(def, obj),
      toObject: (old, body) => fromScale(def, old, body),
      part: 'scale',
    }),
  ],
])

export function subresourceOf(def: ResourceDef, name: string): SubresourceStrategy | undefined {
  const own = strategyOf(def).subresources
  if (own && Object.hasOwn(own, name)) return own[name]
  return generic.get(name)?.(def)
}
