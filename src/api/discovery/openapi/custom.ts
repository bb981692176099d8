import type { ResourceDef } from '../../../apis/resource-def'
import { refTo, type Schema } from './components'
import { listSchema, type KindSchemas } from './document'

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'

/** A custom kind's component name, as upstream names it: the group reversed, then version and kind. */
export function customComponentName(def: Pick<ResourceDef, 'group' | 'version' | 'kind'>): string {
  return [...def.group.split('.').reverse(), def.version, def.kind].join('.')
}

/**
 * The components of custom resources: each version's openAPIV3Schema with apiVersion, kind and
 * the standard ObjectMeta added, and its list, each naming its group/version/kind.
 */
export function customKindSchemas(defs: readonly ResourceDef[]): {
  kinds: KindSchemas
  extra: Record<string, Schema>
} {
  const kinds: KindSchemas = { gvks: new Map(), byResource: new Map(), lists: {} }
  const extra: Record<string, Schema> = {}
  for (const def of defs) {
    const name = customComponentName(def)
    const gvk = { group: def.group, version: def.version, kind: def.kind }
    kinds.byResource.set(`${def.group}/${def.version}/${def.plural}`, name)
    extra[name] = { ...objectSchema(def), 'x-kubernetes-group-version-kind': [gvk] }
    extra[`${name}List`] = {
      ...listSchema(def, name),
      'x-kubernetes-group-version-kind': [{ ...gvk, kind: `${def.kind}List` }],
    }
  }
  return { kinds, extra }
}

function objectSchema(def: ResourceDef): Schema {
  const schema = (def.custom?.schema ?? {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  }) as Schema
  const properties = { ...((schema.properties ?? {}) as Record<string, Schema>) }
  properties.apiVersion = {
    description:
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
    type: 'string',
  }
  properties.kind = {
    description:
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
    type: 'string',
  }
  properties.metadata = {
    allOf: [refTo(OBJECT_META)],
    description:
      "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
  }
  return { ...schema, type: 'object', properties }
}
