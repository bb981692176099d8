import type { Env } from '../env'
import { storeName, type ResourceDef } from '../apis/registry'
import { meteredStub } from '../limits/strict'

/** The store Durable Object holding one resource, addressed by its store name (`group/plural`). */
export function storeFor(env: Env, def: Pick<ResourceDef, 'group' | 'plural' | 'custom'>) {
  const name = storeName(def)
  return meteredStub(env, env.KIND_STORE.get(env.KIND_STORE.idFromName(name)), `store ${name}`)
}
