import type { ControllerBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { crdResource } from '../../apis/registry'
import type { ResourceDef } from '../../apis/resource-def'
import { storageDefOf } from '../../apis/crd/resource-defs'
import { allItems, deletePages, listPages } from '../../store-client/list-pages'
import { storeFor } from '../../store-client/stores'
import { resourceDefOf } from '../resources'
import type { Action, ResourceRef } from '../runtime/types'
import { afterEmptying, type ContentCount } from './reconcile'

/** The stores of every namespaced custom resource: what a namespace's deletion empties besides the built-in kinds. */
async function namespacedCustomResources(env: ControllerBindings): Promise<ResourceDef[]> {
  const crds = (await allItems(listPages(env, crdResource, {}))).map(
    (t) => JSON.parse(t) as KubeObject,
  )
  return crds.map(storageDefOf).filter((def): def is ResourceDef => !!def?.namespaced)
}

/**
 * Upstream's namespaced resources deleter, run in the stores: a deletecollection of each kind in
 * the namespace (in the background, page by page), then a count of what is left and of the
 * finalizers holding it. No object of the namespace passes through the controller's memory, and
 * the number of store calls grows with the kinds served, not with the namespace's content.
 * Returns what to write next: the finalize, or the conditions naming what remains.
 */
export async function emptyNamespace(
  env: ControllerBindings,
  ns: KubeObject,
  resources: readonly ResourceRef[],
  now: number,
): Promise<Action[]> {
  const name = ns.metadata.name ?? ''
  const defs: ResourceDef[] = [
    ...resources.map(resourceDefOf),
    ...(await namespacedCustomResources(env)),
  ]
  const remaining: ContentCount[] = []
  for (const def of defs) {
    for await (const page of deletePages(
      env,
      def,
      name,
      { namespace: name },
      { propagationPolicy: 'Background' },
    ))
      void page
    const content = await storeFor(env, def).namespaceContent(name)
    if (content.count)
      remaining.push({
        resource: `${def.plural}.${def.group}`,
        count: content.count,
        finalizers: content.finalizers,
      })
  }
  return afterEmptying(ns, remaining, now)
}
