/**
 * One OpenAPI v3 document per served group/version, as GET /openapi/v3/{api/v1 | apis/g/v}
 * serves it: a path item per kind and the component schemas of those kinds with everything they
 * reference.
 *
 * The PATCH operation of each kind carries `x-kubernetes-group-version-kind` and a
 * `fieldValidation` parameter: that tells kubectl the server validates fields itself, so it sends
 * fieldValidation=Strict and skips client-side validation. It deliberately has no `requestBody`:
 * one listing application/strategic-merge-patch+json makes kubectl build apply/diff/edit patches
 * from these schemas instead of its compiled-in types, and the DSL covers only the fields this
 * server knows, so patches built from it could differ from the ones upstream types give.
 *
 * `kubectl explain` finds the kind through the `x-kubernetes-group-version-kind` of an operation on
 * the resource's path, then the component schema whose own `x-kubernetes-group-version-kind` list
 * contains it, and walks `properties`, `items`, `additionalProperties` and `allOf` from there.
 */
import type { ResourceDef } from '../../../apis/resource-def'
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { refsOf, refTo, scalarComponents, structSchema, type Schema } from './components'

export interface GroupVersionKind {
  group: string
  version: string
  kind: string
}

export interface OpenAPIDocument {
  openapi: string
  info: { title: string; version: string }
  paths: Record<string, unknown>
  components: { schemas: Record<string, Schema> }
}

/** `api/v1` or `apis/apps/v1`, the key of a group/version in GET /openapi/v3. */
export const groupVersionPath = ({ group, version }: { group: string; version: string }): string =>
  group ? `apis/${group}/${version}` : `api/${version}`

const gvkOf = (r: ResourceDef): GroupVersionKind => ({
  group: r.group,
  version: r.version,
  kind: r.kind,
})

/** A kind's struct and its list's, with the GVKs they stand for. */
export interface KindSchemas {
  /** component name → the GVKs whose schema it is */
  gvks: Map<string, GroupVersionKind[]>
  /** component name of each resource's kind, by `${group}/${version}/${plural}` */
  byResource: Map<string, string>
  /** List kinds the DSL has no struct for, by component name */
  lists: Record<string, Schema>
}

/**
 * The struct of every served kind (via `kindStruct`) and a `<Kind>List` for each, shaped like
 * upstream's, unless the DSL defines one.
 */
export function kindSchemas(
  resources: readonly ResourceDef[],
  schemas: SchemaSet,
  kindStruct: (group: string, version: string, kind: string) => string | undefined,
): KindSchemas {
  const out: KindSchemas = { gvks: new Map(), byResource: new Map(), lists: {} }
  const add = (name: string, gvk: GroupVersionKind) => {
    const list = out.gvks.get(name) ?? []
    if (
      !list.some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind)
    )
      list.push(gvk)
    out.gvks.set(name, list)
  }
  for (const r of resources) {
    const name = kindStruct(r.group, r.version, r.kind)
    if (name === undefined) continue
    add(name, gvkOf(r))
    out.byResource.set(`${r.group}/${r.version}/${r.plural}`, name)
    const listName = `${name}List`
    add(listName, { ...gvkOf(r), kind: `${r.kind}List` })
    if (!Object.hasOwn(schemas, listName)) out.lists[listName] = listSchema(r, name)
  }
  return out
}

const META_PREFIX = 'io.k8s.apimachinery.pkg.apis.meta.v1.'

export function listSchema(r: ResourceDef, itemName: string): Schema {
  return {
    description: `${r.kind}List is a list of ${r.kind} objects.`,
    type: 'object',
    properties: {
      apiVersion: {
        description:
          'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
        type: 'string',
      },
      items: {
        description: `Items is the list of ${r.kind} objects.`,
        type: 'array',
        items: refTo(itemName),
      },
      kind: {
        description:
          'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. In CamelCase.',
        type: 'string',
      },
      metadata: {
        allOf: [refTo(`${META_PREFIX}ListMeta`)],
        description: 'Standard list metadata.',
      },
    },
    required: ['items'],
  }
}

/** The component schema of `name`, with the GVKs it stands for. */
function component(name: string, schemas: SchemaSet, kinds: KindSchemas): Schema | undefined {
  let schema: Schema | undefined
  if (Object.hasOwn(scalarComponents, name)) schema = scalarComponents[name]
  else if (Object.hasOwn(kinds.lists, name)) schema = kinds.lists[name]
  else if (Object.hasOwn(schemas, name)) schema = structSchema(schemas[name]!, schemas)
  if (schema === undefined) return undefined
  const gvks = kinds.gvks.get(name)
  return gvks
    ? { ...schema, 'x-kubernetes-group-version-kind': gvks.map((g) => ({ ...g })) }
    : schema
}

export function groupVersionDocument(
  gv: { group: string; version: string },
  resources: readonly ResourceDef[],
  schemas: SchemaSet,
  kinds: KindSchemas,
  extra: Record<string, Schema> = {},
): OpenAPIDocument {
  const paths: Record<string, unknown> = {}
  const roots: string[] = []
  for (const r of resources.filter((d) => d.group === gv.group && d.version === gv.version)) {
    const name = kinds.byResource.get(`${r.group}/${r.version}/${r.plural}`)
    if (name !== undefined) roots.push(name, `${name}List`)
    paths[resourcePath(r)] = pathItem(r, name)
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths,
    components: { schemas: componentClosure(roots, schemas, kinds, extra) },
  }
}

function resourcePath(r: ResourceDef): string {
  const prefix = '/' + groupVersionPath(r)
  return r.namespaced
    ? `${prefix}/namespaces/{namespace}/${r.plural}/{name}`
    : `${prefix}/${r.plural}/{name}`
}

/** GET (when the kind has a schema) and PATCH of one object, each naming the kind. */
function pathItem(r: ResourceDef, component: string | undefined): Record<string, unknown> {
  const item: Record<string, unknown> = {}
  if (component !== undefined) {
    item.get = {
      'x-kubernetes-action': 'get',
      'x-kubernetes-group-version-kind': gvkOf(r),
      responses: {
        '200': { description: 'OK', content: { 'application/json': { schema: refTo(component) } } },
      },
    }
  }
  item.patch = {
    'x-kubernetes-action': 'patch',
    'x-kubernetes-group-version-kind': gvkOf(r),
    parameters: [{ name: 'fieldValidation', in: 'query', schema: { type: 'string' } }],
    responses: { '200': { description: 'OK' } },
  }
  return item
}

/** The named components and every component they reference, sorted by name. */
export function componentClosure(
  roots: readonly string[],
  schemas: SchemaSet,
  kinds: KindSchemas,
  extra: Record<string, Schema> = {},
): Record<string, Schema> {
  const found: Record<string, Schema> = {}
  const pending = [...roots]
  while (pending.length > 0) {
    const name = pending.pop()!
    if (Object.hasOwn(found, name)) continue
    const schema = Object.hasOwn(extra, name) ? extra[name] : component(name, schemas, kinds)
    if (schema === undefined) continue
    found[name] = schema
    for (const ref of refsOf(schema)) if (!Object.hasOwn(found, ref)) pending.push(ref)
  }
  const out: Record<string, Schema> = {}
  for (const name of Object.keys(found).sort()) out[name] = found[name]!
  return out
}
