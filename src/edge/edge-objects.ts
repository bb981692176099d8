import type { ServiceBindings } from '../service-client/bindings'
import type { KubeObject } from '../apimachinery/types'
import { findResource } from '../apis/registry'
import { allItems, listPages } from '../store-client/list-pages'
import { edgeIngressClass, edgeSettingsOf, type EdgeSettings } from '../apis/ingress-routes'
import { settingsOf } from '../settings/settings'

/** Every object of a v1 kind, from its store, page by page. */
export async function listAll(
  env: ServiceBindings,
  group: string,
  resource: string,
): Promise<KubeObject[]> {
  const def = findResource(group, 'v1', resource)!
  const items = await allItems(listPages(env, def, {}))
  return items.map((i) => JSON.parse(i) as KubeObject)
}

/** The edge's settings in this deployment, given the IngressClasses. */
function edgeSettings(env: ServiceBindings, classes: readonly KubeObject[]): EdgeSettings {
  const edgeClass = classes.find((c) => c.metadata.name === edgeIngressClass)
  const { lbDomain, apiHostnames } = settingsOf(env)
  return edgeSettingsOf(edgeClass, lbDomain, apiHostnames)
}

/** The Ingresses, and the edge's settings read from the IngressClasses: what host ownership and routing are decided on. */
export async function edgeIngresses(
  env: ServiceBindings,
): Promise<{ ingresses: KubeObject[]; settings: EdgeSettings }> {
  const [ingresses, classes] = await Promise.all([
    listAll(env, 'networking.k8s.io', 'ingresses'),
    listAll(env, 'networking.k8s.io', 'ingressclasses'),
  ])
  return { ingresses, settings: edgeSettings(env, classes) }
}
