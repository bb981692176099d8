import type { Env } from '../env'
import type { KubeObject } from '../apimachinery/types'
import { findResource } from '../apis/registry'
import { allItems, listPages } from '../store-client/list-pages'
import { defaultLbDomain, edgeIngressClass, edgeSettingsOf, type EdgeSettings } from '../apis/ingress-routes'
import { apiHostnames } from '../apis/host-ownership'

/** Every object of a v1 kind, from its store, page by page. */
export async function listAll(env: Env, group: string, resource: string): Promise<KubeObject[]> {
  const def = findResource(group, 'v1', resource)!
  const items = await allItems(listPages(env, def, {}))
  return items.map((i) => JSON.parse(i) as KubeObject)
}

/** The edge's settings in this deployment, given the IngressClasses. */
function edgeSettings(env: Env, classes: readonly KubeObject[]): EdgeSettings {
  const edgeClass = classes.find((c) => c.metadata.name === edgeIngressClass)
  return edgeSettingsOf(edgeClass, env.EDGEPLANE_LB_DOMAIN || defaultLbDomain, apiHostnames(env.EDGEPLANE_API_HOST, env.EDGEPLANE_API_ENDPOINT))
}

/** The Ingresses, and the edge's settings read from the IngressClasses: what host ownership and routing are decided on. */
export async function edgeIngresses(env: Env): Promise<{ ingresses: KubeObject[]; settings: EdgeSettings }> {
  const [ingresses, classes] = await Promise.all([listAll(env, 'networking.k8s.io', 'ingresses'), listAll(env, 'networking.k8s.io', 'ingressclasses')])
  return { ingresses, settings: edgeSettings(env, classes) }
}
