import type { StoreBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { builtinResources, crdResource, findResource } from '../apis/registry'
import type { ResourceDef } from '../apis/resource-def'
import { resourceDefsOf } from '../apis/crd/resource-defs'
import { allItems, listPages } from './list-pages'

/** How long a read of the CRDs answers for this isolate before it is read again. */
const freshForMs = 1000

let cached: { at: number; defs: Promise<ResourceDef[]> } | undefined

async function readCustomResources(env: StoreBindings): Promise<ResourceDef[]> {
  const items = await allItems(listPages(env, crdResource, {}))
  return items.flatMap((text) => resourceDefsOf(JSON.parse(text) as KubeObject))
}

/** The resources every Established CRD serves, read at most once a second per isolate. */
export function customResources(env: StoreBindings, fresh = false): Promise<ResourceDef[]> {
  const now = Date.now()
  if (fresh || !cached || now - cached.at >= freshForMs) {
    const defs = readCustomResources(env)
    cached = { at: now, defs }
    defs.catch(() => {
      if (cached?.defs === defs) cached = undefined
    })
  }
  return cached.defs
}

/** A CRD written through this isolate is served (or no longer served) from the next request on. */
export function forgetCustomResources(): void {
  cached = undefined
}

/** Built-in and custom resources, in discovery order. */
export async function servedResources(env: StoreBindings): Promise<ResourceDef[]> {
  return [...builtinResources, ...(await customResources(env))]
}

/**
 * The resource a URL names: built-in first, then the custom ones; a name not found in the
 * cached CRDs is looked up once more in the store, so a CRD just created serves at once.
 */
export async function resolveResource(
  env: StoreBindings,
  group: string,
  version: string,
  plural: string,
): Promise<ResourceDef | undefined> {
  const builtin = findResource(group, version, plural)
  if (builtin) return builtin
  const find = (defs: ResourceDef[]) =>
    defs.find((d) => d.group === group && d.version === version && d.plural === plural)
  return find(await customResources(env)) ?? find(await customResources(env, true))
}
