import type { Env } from '../env'
import { storeName, type ResourceDef } from '../apis/registry'

/** The store Durable Object holding one resource, addressed by its store name (`group/plural`). */
export function storeFor(env: Env, def: Pick<ResourceDef, 'group' | 'plural' | 'custom'>) {
  return env.KIND_STORE.get(env.KIND_STORE.idFromName(storeName(def)))
}
