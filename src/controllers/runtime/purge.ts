import type { Env } from '../../env'
import type { KubeObject } from '../../apimachinery/types'
import { crdResource } from '../../apis/registry'
import { CLEANUP_FINALIZER } from '../../apis/crd/crd-object'
import { storageDefOf } from '../../apis/crd/resource-defs'
import { storeFor } from '../../client/stores'
import { allItems, deletePages, listPages } from '../../client/list-pages'
import { unwrap } from '../../api/respond'

/**
 * Deletes every object a CRD's store holds; once none is left, removes the cleanup finalizer
 * from the CRD as observed (a CRD changed since is left for the next pass). Returns the CRD as
 * written, or undefined while objects remain.
 */
export async function purgeCustomResources(env: Env, crd: KubeObject): Promise<{ object: KubeObject; deleted?: boolean } | undefined> {
  const def = storageDefOf(crd)
  if (def) {
    const store = storeFor(env, def)
    await allItems(deletePages(env, def, undefined, {}, {}))
    if (unwrap(await store.list(def.plural, { limit: 1 })).items.length) return undefined
  }
  const finalizers = (crd.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER)
  const patch = { metadata: { resourceVersion: crd.metadata.resourceVersion, finalizers } }
  const written = unwrap(await storeFor(env, crdResource).patch({ def: crdResource, name: crd.metadata.name ?? '' }, 'merge', patch, undefined, {}))
  return { object: JSON.parse(written.object) as KubeObject, deleted: written.deleted }
}

/**
 * Deletes every custom resource in a namespace, for the namespace controller. Throws while some
 * remain (finalizers still pending), so the namespace is not finalized before they are gone.
 */
export async function purgeNamespaceCustomResources(env: Env, namespace: string): Promise<void> {
  const crds = (await allItems(listPages(env, crdResource, {}))).map((t) => JSON.parse(t) as KubeObject)
  const remaining: string[] = []
  for (const crd of crds) {
    const def = storageDefOf(crd)
    if (!def?.namespaced) continue
    const store = storeFor(env, def)
    await allItems(deletePages(env, def, namespace, { namespace }, {}))
    if (unwrap(await store.list(def.plural, { namespace, limit: 1 })).items.length) remaining.push(`${def.plural}.${def.group}`)
  }
  if (remaining.length) throw new Error(`namespace ${namespace} still has ${remaining.join(', ')}`)
}
