import type { ServiceBindings } from '../service-client/bindings'
import type { KubeObject } from '../apimachinery/types'
import { findResource } from '../apis/registry'
import { storeFor } from '../store-client/stores'
import { defaultClassAnnotation, edgeController, edgeIngressClass } from '../apis/ingress-routes'

/** Creates the `edgeplane` IngressClass, marked default, unless it exists (as an addon manager's EnsureExists). */
export async function ensureIngressClass(env: ServiceBindings): Promise<void> {
  const def = findResource('networking.k8s.io', 'v1', 'ingressclasses')!
  const store = storeFor(env, def)
  if ((await store.get({ def, name: edgeIngressClass })).ok) return
  const cls: KubeObject = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: { name: edgeIngressClass, annotations: { [defaultClassAnnotation]: 'true' } },
    spec: { controller: edgeController },
  }
  await store.create({ def, name: edgeIngressClass }, cls, {})
}
