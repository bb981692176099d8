/** What a resource URL addresses, as kube-apiserver's RequestInfo. */
export interface RequestInfo {
  group: string
  version: string
  namespace?: string
  resource: string
  name?: string
  subresource?: string
}

/**
 * Parses the path below `/api/v1` or `/apis/{group}/{version}`:
 * `[namespaces/{ns}/]{resource}[/{name}[/{subresource}]]`. `namespaces/{name}` itself addresses
 * the Namespace.
 */
export function parseResourcePath(group: string, version: string, rest: string): RequestInfo | undefined {
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent)
  if (parts.length === 0) return undefined
  if (parts[0] === 'namespaces' && parts.length >= 3) {
    const [, namespace, resource, name, subresource, ...extra] = parts
    // As upstream, what follows `proxy` is the proxied path, not part of the resource.
    if (extra.length && subresource !== 'proxy') return undefined
    return { group, version, namespace, resource: resource!, name, subresource }
  }
  const [resource, name, subresource, ...extra] = parts
  if (extra.length && subresource !== 'proxy') return undefined
  return { group, version, resource: resource!, name, subresource }
}
