import type { ResourceDef } from './resource-def'
import { accessResources } from './resource-table/access'
import { clusterResources } from './resource-table/cluster'
import { coreResources } from './resource-table/core'
import { extensionResources } from './resource-table/extensions'
import { workloadResources } from './resource-table/workloads'

export type { ResourceDef } from './resource-def'

/** Every built-in resource, in discovery order (kubectl resolves names in this order). */
export const builtinResources: ResourceDef[] = [
  ...coreResources,
  ...workloadResources,
  ...clusterResources,
  ...extensionResources,
  ...accessResources,
]

/** The resources kept in stores: every built-in one but the virtual review kinds. */
export const storedResources: ResourceDef[] = builtinResources.filter((d) => !d.virtual)

/** `apps/v1` or `v1` */
export function apiVersionOf(def: Pick<ResourceDef, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version
}

const builtinStoreNames = new Set(builtinResources.map((d) => `${d.group || 'core'}/${d.plural}`))

/**
 * The name of the store instance holding a resource: one Durable Object per group/resource. A
 * custom resource never shares a built-in resource's store, whatever group and plural its CRD
 * declares: one that would is kept under a name (`custom:` and a DNS group cannot hold a colon)
 * no built-in resource has.
 */
export function storeName(def: Pick<ResourceDef, 'group' | 'plural' | 'custom'>): string {
  const name = `${def.group || 'core'}/${def.plural}`
  return def.custom && builtinStoreNames.has(name) ? `custom:${name}` : name
}

const byPath = new Map(storedResources.map((d) => [`${d.group}/${d.version}/${d.plural}`, d]))

/** A stored resource by group, version and plural (never a virtual one). */
export function findResource(
  group: string,
  version: string,
  plural: string,
): ResourceDef | undefined {
  return byPath.get(`${group}/${version}/${plural}`)
}

export function groupVersions(
  resources: readonly ResourceDef[] = builtinResources,
): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>()
  for (const d of resources)
    seen.set(`${d.group}/${d.version}`, { group: d.group, version: d.version })
  return [...seen.values()]
}

/** The CustomResourceDefinition resource, which serves the custom ones. */
export const crdResource = builtinResources.find((d) => d.kind === 'CustomResourceDefinition')!
