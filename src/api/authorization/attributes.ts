import { parseFieldSelector, requiresExactMatch } from '../../apimachinery/fields'
import { qualifiedResource } from '../../apimachinery/status'
import { parsedOf } from '../http/request-info'

/** A resource request as kube-apiserver's authorizers see it. */
export interface ResourceAttributes {
  verb: string
  group: string
  version?: string
  resource: string
  subresource?: string
  namespace?: string
  name?: string
  /** the raw `fieldSelector` of a list, watch or deletecollection */
  fieldSelector?: string
  /** the raw `labelSelector` of a list or watch */
  labelSelector?: string
}

/** A request for any other path (discovery, health, the agent tunnel). */
export interface NonResourceAttributes {
  verb: string
  path: string
}

export type Attributes = ResourceAttributes | NonResourceAttributes

export function isResourceRequest(attrs: Attributes): attrs is ResourceAttributes {
  return 'resource' in attrs
}

/** `pods` or `pods/status`, as RBAC rules name a resource. */
export function combinedResource(attrs: ResourceAttributes): string {
  return attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource
}

/** The resources whose objects are in their own namespace, as upstream: a Namespace. */
const ownNamespace: ReadonlySet<string> = new Set([qualifiedResource('', 'namespaces')])

/** The attributes of a request, from the server's one reading of it (see request-info.ts). */
export function attributesOf(req: Request): Attributes {
  const { path, verb, info } = parsedOf(req)
  if (!info) return { verb, path }
  const q = new URL(req.url).searchParams
  const attrs: ResourceAttributes = {
    verb,
    group: info.group,
    version: info.version,
    resource: info.resource,
  }
  if (info.subresource) attrs.subresource = info.subresource
  const namespace =
    info.namespace ??
    (ownNamespace.has(qualifiedResource(info.group, info.resource)) ? info.name : undefined)
  if (namespace) attrs.namespace = namespace
  if (info.name) attrs.name = info.name
  const fieldSelector = q.get('fieldSelector')
  if (
    fieldSelector &&
    !info.name &&
    (verb === 'list' || verb === 'watch' || verb === 'deletecollection')
  )
    attrs.fieldSelector = fieldSelector
  const labelSelector = q.get('labelSelector')
  if (labelSelector && !info.name && (verb === 'list' || verb === 'watch'))
    attrs.labelSelector = labelSelector
  // As upstream's RequestInfo: a list or watch pinned to one name by `metadata.name=` is about that object.
  if (!info.name && (verb === 'list' || verb === 'watch') && fieldSelector) {
    const name = selectedName(fieldSelector)
    if (name) attrs.name = name
  }
  return attrs
}

/** The name a field selector requires with `metadata.name=`, when it is a valid path segment. */
function selectedName(fieldSelector: string): string | undefined {
  let name: string | undefined
  try {
    name = requiresExactMatch(parseFieldSelector(fieldSelector), 'metadata.name')
  } catch {
    return undefined
  }
  if (!name || name === '.' || name === '..' || name.includes('/') || name.includes('%'))
    return undefined
  return name
}
