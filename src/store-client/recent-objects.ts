import type { StoreBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { storeName } from '../apis/registry'
import type { ResourceDef } from '../apis/resource-def'
import { storeFor } from './stores'

/**
 * Objects read from their store and kept in the isolate for a short while, as an informer's lister
 * would serve them: for reads made on every request (a namespace's labels in admission, the pod
 * behind an endpoint) where a second of staleness is what upstream allows too.
 */
const recent = new Map<string, { at: number; object: Promise<KubeObject | undefined> }>()

/** At most this many objects are kept; past it the isolate starts afresh. */
const maxKept = 1_000

function keyOf(
  def: Pick<ResourceDef, 'group' | 'plural' | 'custom'>,
  namespace: string | undefined,
  name: string,
): string {
  return `${storeName(def)}/${namespace ?? ''}/${name}`
}

/**
 * The object of that kind, namespace and name (undefined when there is none), read again once the
 * copy this isolate holds is `ttlMs` old. A failed read is not kept.
 */
export function recentObject(
  env: StoreBindings,
  def: ResourceDef,
  namespace: string | undefined,
  name: string,
  ttlMs: number,
): Promise<KubeObject | undefined> {
  const key = keyOf(def, namespace, name)
  const now = Date.now()
  const hit = recent.get(key)
  if (hit && now - hit.at < ttlMs) return hit.object
  if (recent.size > maxKept) recent.clear()
  const object = storeFor(env, def)
    .get({ def, namespace, name })
    .then((got) => (got.ok ? (JSON.parse(got.value) as KubeObject) : undefined))
  recent.set(key, { at: now, object })
  object.catch(() => recent.get(key)?.object === object && recent.delete(key))
  return object
}

/** After a write to the object: the next read goes to the store. */
export function forgetRecentObject(
  def: Pick<ResourceDef, 'group' | 'plural' | 'custom'>,
  namespace: string | undefined,
  name: string,
): void {
  recent.delete(keyOf(def, namespace, name))
}
