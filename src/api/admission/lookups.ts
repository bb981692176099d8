import type { Env } from '../../env'
import type { KubeObject } from '../../apimachinery/types'
import { findResource } from '../../apis/registry'
import { storeFor } from '../../client/stores'
import { unwrap } from '../respond'

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

async function list(env: Env, def: typeof quotasDef, namespace: string): Promise<KubeObject[]> {
  return unwrap(await storeFor(env, def).list(def.plural, { namespace })).items.map((t) => JSON.parse(t) as KubeObject)
}

/** Every read from the stores: what an API request's admission uses. */
export function storeLookups(env: Env): AdmissionLookups {
  return { limitRanges: (ns) => list(env, limitRangesDef, ns), quotas: (ns) => list(env, quotasDef, ns), quotaWritten: () => {} }
}

/**
 * Reads remembered for `ttlMs` per namespace, for the controllers' creates (a ReplicaSet's burst of
 * pods costs one read, not one per pod), as upstream's admission plugins read through informers.
 * A quota conflict always re-reads, and admission's own quota writes replace the remembered copy,
 * so a stale quota can delay a charge but never let one through twice.
 */
export function cachedLookups(env: Env, ttlMs: number, now: () => number = Date.now): AdmissionLookups {
  const remembered = new Map<string, { at: number; items: KubeObject[] }>()
  const read = async (def: typeof quotasDef, namespace: string, fresh: boolean) => {
    const key = `${def.plural}/${namespace}`
    const hit = remembered.get(key)
    if (!fresh && hit && now() - hit.at < ttlMs) return hit.items
    const items = await list(env, def, namespace)
    remembered.set(key, { at: now(), items })
    return items
  }
  return {
    limitRanges: (ns) => read(limitRangesDef, ns, false),
    quotas: (ns, fresh = false) => read(quotasDef, ns, fresh),
    quotaWritten(quota) {
      const hit = remembered.get(`${quotasDef.plural}/${quota.metadata.namespace}`)
      if (hit) hit.items = hit.items.map((q) => (q.metadata.uid === quota.metadata.uid ? quota : q))
    },
  }
}
