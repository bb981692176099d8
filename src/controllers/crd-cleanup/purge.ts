import { unwrap } from '../../apimachinery/status'
import type { ControllerBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { crdResource } from '../../apis/registry'
import { CLEANUP_FINALIZER } from '../../apis/crd/crd-object'
import { storageDefOf } from '../../apis/crd/resource-defs'
import { storeFor } from '../../store-client/stores'
import { allItems, deletePages } from '../../store-client/list-pages'

/**
 * Deletes every object a CRD's store holds; once none is left, removes the cleanup finalizer
 * from the CRD as observed (a CRD changed since is left for the next pass). Returns the CRD as
 * written, or undefined while objects remain.
 */
export async function purgeCustomResources(
  env: ControllerBindings,
  crd: KubeObject,
): Promise<{ object: KubeObject; deleted?: boolean } | undefined> {
  const def = storageDefOf(crd)
  if (def) {
    const store = storeFor(env, def)
    await allItems(deletePages(env, def, undefined, {}, {}))
    if (unwrap(await store.list(def.plural, { limit: 1 })).items.length) return undefined
  }
  const finalizers = (crd.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER)
  const patch = { metadata: { resourceVersion: crd.metadata.resourceVersion, finalizers } }
  const written = unwrap(
    await storeFor(env, crdResource).patch(
      { def: crdResource, name: crd.metadata.name ?? '' },
      'merge',
      patch,
      undefined,
      {},
    ),
  )
  return { object: JSON.parse(written.object) as KubeObject, deleted: written.deleted }
}
