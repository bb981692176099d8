import { builtinResources, groupVersions } from '../apis/registry'

const openapiHash = 'edgeplane-v1'

/** GET /openapi/v3: one entry per served group/version. */
export function openapiIndex() {
  const paths: Record<string, { serverRelativeURL: string }> = {}
  for (const { group, version } of groupVersions()) {
    const p = group ? `apis/${group}/${version}` : `api/${version}`
    paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${openapiHash}` }
  }
  return { paths }
}

/**
 * GET /openapi/v3/{api/v1 | apis/g/v}: a PATCH operation per kind that accepts `fieldValidation`,
 * which tells kubectl the server validates fields itself (so it sends fieldValidation=Strict and
 * skips client-side validation).
 */
export function openapiGroupVersion(path: string) {
  const gv = groupVersions().find(({ group, version }) => (group ? `apis/${group}/${version}` : `api/${version}`) === path)
  if (!gv) return undefined
  const paths: Record<string, unknown> = {}
  for (const d of builtinResources.filter((r) => r.group === gv.group && r.version === gv.version)) {
    const prefix = gv.group ? `/apis/${gv.group}/${gv.version}` : `/api/${gv.version}`
    const item = d.namespaced ? `${prefix}/namespaces/{namespace}/${d.plural}/{name}` : `${prefix}/${d.plural}/{name}`
    paths[item] = {
      patch: {
        'x-kubernetes-group-version-kind': { group: d.group, version: d.version, kind: d.kind },
        parameters: [{ name: 'fieldValidation', in: 'query', schema: { type: 'string' } }],
        responses: { '200': { description: 'OK' } },
      },
    }
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths, components: { schemas: {} } }
}
