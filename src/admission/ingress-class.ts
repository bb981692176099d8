import type { AdmissionBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { findResource } from '../apis/registry'
import { storeFor } from '../store-client/stores'
import { defaultClassAnnotation } from '../apis/ingress-routes'

/**
 * The DefaultIngressClass admission plugin: an Ingress created without a class (nor the legacy
 * `kubernetes.io/ingress.class` annotation) gets the default IngressClass, the newest if several.
 */
export async function defaultIngressClass(env: AdmissionBindings, ing: KubeObject): Promise<void> {
  const spec = (ing.spec ??= {}) as { ingressClassName?: string }
  if (spec.ingressClassName || ing.metadata?.annotations?.['kubernetes.io/ingress.class']) return
  const def = findResource('networking.k8s.io', 'v1', 'ingressclasses')!
  const res = await storeFor(env, def).list('ingressclasses', {})
  if (!res.ok) return
  const defaults = res.value.items
    .map((t) => JSON.parse(t) as KubeObject)
    .filter((c) => c.metadata.annotations?.[defaultClassAnnotation] === 'true')
  defaults.sort((a, b) =>
    String(b.metadata.creationTimestamp ?? '').localeCompare(
      String(a.metadata.creationTimestamp ?? ''),
    ),
  )
  const chosen = defaults[0]?.metadata.name
  if (chosen) spec.ingressClassName = chosen
}
