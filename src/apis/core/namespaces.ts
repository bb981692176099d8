/** core/v1 Namespace: its strategy (upstream's namespaceStrategy, namespaceFinalizeStrategy and REST Delete). */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import type { KindStrategy } from '../kind-strategy'

/** A new namespace carries the `kubernetes` finalizer: the namespace controller empties it before it goes. */
function admitNewNamespace(obj: KubeObject): void {
  const spec = asRecord(obj.spec)
  const finalizers = Array.isArray(spec.finalizers) ? (spec.finalizers as string[]) : []
  if (!finalizers.includes('kubernetes')) finalizers.push('kubernetes')
  obj.spec = { ...spec, finalizers }
}

/** PUT namespaces/{name}/finalize changes spec.finalizers only. */
function finalized(old: KubeObject, body: KubeObject): KubeObject {
  const finalizers = ((body.spec ?? {}) as { finalizers?: unknown }).finalizers
  return {
    ...old,
    spec: { ...(old.spec as object), finalizers: Array.isArray(finalizers) ? finalizers : [] },
  }
}

export const namespaceStrategy: KindStrategy = {
  initialStatus: () => ({ phase: 'Active' }),
  prepareForCreate: (obj) => admitNewNamespace(obj),
  // spec.finalizers hold a namespace's deletion as metadata.finalizers do.
  finalizers: (obj) => (asRecord(obj.spec).finalizers as string[] | undefined) ?? [],
  // As kube-apiserver: a namespace being deleted is Terminating until its content is gone.
  prepareForDelete: (obj) => {
    obj.status = { ...((obj.status ?? {}) as object), phase: 'Terminating' }
  },
  subresources: {
    finalize: { toObject: (old, body) => ({ ok: true, value: finalized(old, body) }) },
  },
}
