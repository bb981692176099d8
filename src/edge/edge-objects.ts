import type { Env } from '../env'
import type { KubeObject } from '../apimachinery/types'
import { unwrap } from '../apimachinery/status'
import { findResource } from '../apis/registry'
import { storeFor } from '../store-client/stores'
import { defaultLbDomain, edgeIngressClass, edgeSettingsOf, type EdgeSettings } from '../apis/ingress-routes'
import { apiHostnames } from '../apis/host-ownership'

/** Every object of a v1 kind, from its store. */
export async function listAll(env: Env, group: string, resource: string): Promise<KubeObject[]> {
  const def = findResource(group, 'v1', resource)!
  const res = unwrap(await storeFor(env, def).list(resource, {}))
  return res.items.map((i) => JSON.parse(i) as KubeObject)
}

/** The edge's settings in this deployment, given the IngressClasses. */
export function edgeSettings(env: Env, classes: readonly KubeObject[]): EdgeSettings {
  const edgeClass = classes.find((c) => c.metadata.name === edgeIngressClass)
  return edgeSettingsOf(edgeClass, env.EDGEPLANE_LB_DOMAIN || defaultLbDomain, apiHostnames(env.EDGEPLANE_API_HOST, env.EDGEPLANE_API_ENDPOINT))
}
