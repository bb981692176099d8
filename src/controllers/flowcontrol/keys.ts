import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import type { Cache, ResourceRef } from '../runtime/types'
import { sameResource } from '../resources'
import { bootstrapNames } from '../../apis/flowcontrol/bootstrap'
import { flowcontrolGroup, flowSchemaKind, priorityLevelKind } from '../../apis/flowcontrol/names'

export const flowSchemas: ResourceRef = Object.freeze({
  group: flowcontrolGroup,
  version: 'v1',
  plural: 'flowschemas',
})
export const priorityLevels: ResourceRef = Object.freeze({
  group: flowcontrolGroup,
  version: 'v1',
  plural: 'prioritylevelconfigurations',
})

/** A key names the resource and the object: `flowschemas/<name>` or `prioritylevelconfigurations/<name>` (names hold no `/`). */
export const keyOf = (resource: ResourceRef, name: string): string => `${resource.plural}/${name}`

export function parseKey(key: string): { resource: ResourceRef; kind: string; name: string } {
  const slash = key.indexOf('/')
  const plural = key.slice(0, slash)
  const name = key.slice(slash + 1)
  return plural === flowSchemas.plural
    ? { resource: flowSchemas, kind: flowSchemaKind, name }
    : { resource: priorityLevels, kind: priorityLevelKind, name }
}

export const levelOf = (fs: KubeObject): string =>
  String(asRecord(asRecord(fs.spec).priorityLevelConfiguration).name ?? '')

/** A FlowSchema's change concerns itself; a level's, itself and the FlowSchemas that name it. */
export function keysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  const name = object.metadata.name ?? ''
  if (sameResource(resource, flowSchemas)) return [keyOf(flowSchemas, name)]
  const referring = cache.list(flowSchemas).filter((fs) => levelOf(fs) === name)
  return [
    keyOf(priorityLevels, name),
    ...referring.map((fs) => keyOf(flowSchemas, fs.metadata.name ?? '')),
  ]
}

/** Every stored object, and every bootstrap object (stored or not). */
export function allKeys(cache: Cache): string[] {
  const keys = new Set<string>()
  for (const [resource, kind] of [
    [flowSchemas, flowSchemaKind],
    [priorityLevels, priorityLevelKind],
  ] as const) {
    for (const name of bootstrapNames(kind)) keys.add(keyOf(resource, name))
    for (const o of cache.list(resource)) keys.add(keyOf(resource, o.metadata.name ?? ''))
  }
  return [...keys]
}
