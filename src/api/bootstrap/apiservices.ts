/**
 * The Local APIServices kube-apiserver registers at start (its autoregister controller's
 * `onstart` set), created when missing; the apiservice-autoregister controller keeps them after.
 */
import type { ApiBindings } from '../bindings'
import { findResource } from '../../apis/registry'
import { localApiServices } from '../../apis/apiregistration/apiservice'
import { storeFor } from '../../store-client/stores'
import { allItems, listPages } from '../../store-client/list-pages'

export async function ensureLocalApiServices(env: ApiBindings): Promise<void> {
  const def = findResource('apiregistration.k8s.io', 'v1', 'apiservices')!
  const store = storeFor(env, def)
  const existing = new Set(
    (await allItems(listPages(env, def, {}))).map(
      (text) => (JSON.parse(text) as { metadata: { name: string } }).metadata.name,
    ),
  )
  await Promise.all(
    localApiServices()
      .filter((o) => !existing.has(o.metadata.name!))
      .map((o) => store.create({ def, name: o.metadata.name! }, o, {})),
  )
}
