import { groupVersions } from '../../apis/registry'
import type { ResourceDef } from '../../apis/resource-def'

const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']
const subresourceVerbs = ['get', 'patch', 'update']

/** The Content-Type kubectl needs to accept an aggregated discovery document. */
export const aggregatedDiscoveryType =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'

export function wantsAggregated(accept: string | null): boolean {
  return (accept ?? '').includes('as=APIGroupDiscoveryList') && (accept ?? '').includes('v=v2')
}

function subresourcesOf(d: ResourceDef) {
  const out: { name: string; kind: string; group?: string; version?: string; verbs: string[] }[] =
    []
  for (const s of d.subresources) {
    if (s === 'status' || s === 'approval')
      out.push({ name: s, kind: d.kind, verbs: subresourceVerbs })
    else
      out.push({
        name: 'scale',
        kind: 'Scale',
        group: 'autoscaling',
        version: 'v1',
        verbs: subresourceVerbs,
      })
  }
  return [...out, ...(d.extraSubresources ?? [])].sort((a, b) => a.name.localeCompare(b.name))
}

/** GET /api/v1 and /apis/{group}/{version}: the legacy APIResourceList. */
export function resourceList(served: readonly ResourceDef[], group: string, version: string) {
  const resources: Record<string, unknown>[] = []
  for (const d of served.filter((r) => r.group === group && r.version === version)) {
    const entry: Record<string, unknown> = {
      name: d.plural,
      singularName: d.singular,
      namespaced: d.namespaced,
      kind: d.kind,
      verbs: d.verbs ?? verbs,
    }
    if (d.shortNames) entry.shortNames = d.shortNames
    if (d.categories) entry.categories = d.categories
    resources.push(entry)
    for (const s of subresourcesOf(d)) {
      const sub: Record<string, unknown> = {
        name: `${d.plural}/${s.name}`,
        singularName: '',
        namespaced: d.namespaced,
        kind: s.kind,
        verbs: s.verbs,
      }
      if (s.group !== undefined) Object.assign(sub, { group: s.group, version: s.version })
      resources.push(sub)
    }
  }
  if (!resources.length) return undefined
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  }
}

function groupEntry(served: readonly ResourceDef[], group: string) {
  const versions = groupVersions(served)
    .filter((gv) => gv.group === group)
    .map((gv) => ({ groupVersion: `${group}/${gv.version}`, version: gv.version }))
  return { name: group, versions, preferredVersion: versions[0] }
}

export function apiVersions(host: string) {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: host }],
  }
}

export function apiGroupList(served: readonly ResourceDef[]) {
  const groups = [
    ...new Set(
      groupVersions(served)
        .map((gv) => gv.group)
        .filter(Boolean),
    ),
  ]
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups.map((g) => groupEntry(served, g)),
  }
}

export function apiGroup(served: readonly ResourceDef[], group: string) {
  if (!groupVersions(served).some((gv) => gv.group === group)) return undefined
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(served, group) }
}

/** The aggregated (apidiscovery.k8s.io/v2) document for the core group (`/api`) or the named groups (`/apis`). */
export function aggregatedDiscovery(served: readonly ResourceDef[], core: boolean) {
  const groups = [...new Set(groupVersions(served).map((gv) => gv.group))].filter((g) =>
    core ? g === '' : g !== '',
  )
  const items = groups.map((group) => ({
    metadata: group ? { name: group } : {},
    versions: groupVersions(served)
      .filter((gv) => gv.group === group)
      .map((gv) => ({
        version: gv.version,
        freshness: 'Current',
        resources: served
          .filter((d) => d.group === group && d.version === gv.version)
          .map((d) => ({
            resource: d.plural,
            responseKind: { group: d.group, version: d.version, kind: d.kind },
            scope: d.namespaced ? 'Namespaced' : 'Cluster',
            singularResource: d.singular,
            verbs: d.verbs ?? verbs,
            ...(d.shortNames ? { shortNames: d.shortNames } : {}),
            ...(d.categories ? { categories: d.categories } : {}),
            subresources: subresourcesOf(d).map((s) => ({
              subresource: s.name,
              responseKind: {
                group: s.group ?? d.group,
                version: s.version ?? d.version,
                kind: s.kind,
              },
              verbs: s.verbs,
            })),
          })),
      })),
  }))
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items,
  }
}
