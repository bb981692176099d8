import { storeName } from '../apis/registry'
import type { ResourceDef } from '../apis/resource-def'
import { meteredStub } from '../limits/strict'
import { settingsOf } from '../settings/settings'
import type { StoreBindings } from './bindings'

/** The store Durable Object holding one resource, addressed by its store name (`group/plural`). */
export function storeFor(
  env: StoreBindings,
  def: Pick<ResourceDef, 'group' | 'plural' | 'custom'>,
) {
  const name = storeName(def)
  return meteredStub(
    settingsOf(env).strictLimits,
    env.KIND_STORE.get(env.KIND_STORE.idFromName(name)),
    `store ${name}`,
  )
}
