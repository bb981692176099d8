import type { AdmissionBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { findResource } from '../apis/registry'
import { storeFor } from '../store-client/stores'
import { unwrap } from '../apimachinery/status'

const limitRangesDef = findResource('', 'v1', 'limitranges')!
const quotasDef = findResource('', 'v1', 'resourcequotas')!

/** How admission reads a namespace's LimitRanges and ResourceQuotas. */
export interface AdmissionLookups {
  limitRanges(namespace: string): Promise<KubeObject[]>
  /** `fresh` after a conflict: the stored quotas, never a remembered copy */
  quotas(namespace: string, fresh?: boolean): Promise<KubeObject[]>
  /** a quota admission has just written (its new resourceVersion) */
  quotaWritten(quota: KubeObject): void
}

async function list(
  env: AdmissionBindings,
  def: typeof quotasDef,
  namespace: string,
): Promise<KubeObject[]> {
  return unwrap(await storeFor(env, def).list(def.plural, { namespace })).items.map(
    (t) => JSON.parse(t) as KubeObject,
  )
}

/** Every read from the stores: what an API request's admission uses. */
export function storeLookups(env: AdmissionBindings): AdmissionLookups {
  return {
    limitRanges: (ns) => list(env, limitRangesDef, ns),
    quotas: (ns) => list(env, quotasDef, ns),
    quotaWritten: () => {},
  }
}

/**
 * Reads shared by a batch of a controller's creates that all begin together (slowStart's batch):
 * each namespace's LimitRanges and quotas are read once for the batch (a ReplicaSet's burst of pods
 * costs one read per batch, not one per pod), and only after the batch began, so a create sees every
 * quota stored before it began, with the status stored with it. A quota conflict always re-reads,
 * and admission's own quota writes replace the shared copy.
 */
export function batchLookups(env: AdmissionBindings): AdmissionLookups {
  const reads = new Map<string, Promise<KubeObject[]>>()
  const read = (def: typeof quotasDef, namespace: string, fresh: boolean) => {
    const key = `${def.plural}/${namespace}`
    const shared = reads.get(key)
    if (shared && !fresh) return shared
    const items = list(env, def, namespace)
    reads.set(key, items)
    // A failed read is not shared: the next create reads again.
    items.catch(() => reads.get(key) === items && reads.delete(key))
    return items
  }
  return {
    limitRanges: (ns) => read(limitRangesDef, ns, false),
    quotas: (ns, fresh = false) => read(quotasDef, ns, fresh),
    quotaWritten(quota) {
      const key = `${quotasDef.plural}/${quota.metadata.namespace}`
      const shared = reads.get(key)
      if (shared)
        reads.set(
          key,
          shared.then((items) =>
            items.map((q) => (q.metadata.uid === quota.metadata.uid ? quota : q)),
          ),
        )
    },
  }
}
