import { describe, expect, it } from 'vitest'
import { openapiGroupVersion, openapiIndex } from '../../../../../src/api/discovery/openapi'
import { refName, refsOf, type Schema } from '../../../../../src/api/discovery/openapi/components'
import { hashText } from '../../../../../src/api/discovery/openapi/hash'

const APPS = 'io.k8s.api.apps.v1.'
const CORE = 'io.k8s.api.core.v1.'
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.'

const doc = (path: string) => {
  const d = openapiGroupVersion([], path)
  if (!d) throw new Error(`no document for ${path}`)
  return d
}
const component = (path: string, name: string): Schema => {
  const s = doc(path).components.schemas[name]
  if (!s) throw new Error(`no component ${name} in ${path}`)
  return s
}
const prop = (schema: Schema, name: string): Schema =>
  (schema.properties as Record<string, Schema>)[name]!

describe('OpenAPI v3 index', () => {
  it('lists every served group/version with a hash of its document', () => {
    const { paths } = openapiIndex([])
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining(['api/v1', 'apis/apps/v1', 'apis/batch/v1']),
    )
    for (const [path, { serverRelativeURL }] of Object.entries(paths)) {
      expect(serverRelativeURL).toBe(
        `/openapi/v3/${path}?hash=${hashText(JSON.stringify(doc(path)))}`,
      )
    }
  })

  it('gives different documents different hashes and is memoised', () => {
    const hashes = Object.values(openapiIndex([]).paths).map(
      (p) => p.serverRelativeURL.split('hash=')[1],
    )
    expect(new Set(hashes).size).toBe(hashes.length)
    expect(hashes.every((h) => /^[0-9A-F]{16}$/.test(h!))).toBe(true)
    expect(openapiGroupVersion([], 'apis/apps/v1')).toBe(openapiGroupVersion([], 'apis/apps/v1'))
    expect(openapiGroupVersion([], 'apis/nope/v1')).toBeUndefined()
  })

  it('hashes text stably and sensitively', () => {
    expect(hashText('abc')).toBe(hashText('abc'))
    expect(hashText('abc')).not.toBe(hashText('abd'))
    expect(hashText('')).toMatch(/^[0-9A-F]{16}$/)
  })
})

describe('OpenAPI v3 group/version document', () => {
  it('describes Deployment.spec.replicas as an int32 integer with its description', () => {
    const replicas = prop(component('apis/apps/v1', APPS + 'DeploymentSpec'), 'replicas')
    expect(replicas).toEqual({
      type: 'integer',
      format: 'int32',
      description:
        'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
    })
  })

  it('marks each kind with its group/version/kind, and adds its List', () => {
    expect(
      component('apis/apps/v1', APPS + 'Deployment')['x-kubernetes-group-version-kind'],
    ).toEqual([{ group: 'apps', version: 'v1', kind: 'Deployment' }])
    expect(component('api/v1', CORE + 'Pod')['x-kubernetes-group-version-kind']).toEqual([
      { group: '', version: 'v1', kind: 'Pod' },
    ])
    const list = component('apis/apps/v1', APPS + 'DeploymentList')
    expect(list['x-kubernetes-group-version-kind']).toEqual([
      { group: 'apps', version: 'v1', kind: 'DeploymentList' },
    ])
    expect(prop(list, 'items')).toMatchObject({
      type: 'array',
      items: { $ref: `#/components/schemas/${APPS}Deployment` },
    })
    expect(list.required).toEqual(['items'])
  })

  it('wraps described refs in allOf, and every ref resolves within the document', () => {
    const spec = prop(component('apis/apps/v1', APPS + 'Deployment'), 'spec')
    expect(spec).toEqual({
      allOf: [{ $ref: `#/components/schemas/${APPS}DeploymentSpec` }],
      description: 'Specification of the desired behavior of the Deployment.',
    })
    for (const path of Object.keys(openapiIndex([]).paths)) {
      const d = doc(path)
      const missing = [...refsOf(d)].filter((name) => !(name in d.components.schemas))
      expect(missing, path).toEqual([])
    }
    // apps/v1 documents the core and meta types its kinds embed.
    expect(Object.keys(doc('apis/apps/v1').components.schemas)).toEqual(
      expect.arrayContaining([CORE + 'PodSpec', CORE + 'Container', META + 'ObjectMeta']),
    )
  })

  it('carries list, patch and required extensions', () => {
    const podSpec = component('api/v1', CORE + 'PodSpec')
    expect(prop(podSpec, 'containers')).toMatchObject({
      type: 'array',
      items: { $ref: `#/components/schemas/${CORE}Container` },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
    })
    expect(prop(podSpec, 'volumes')).toMatchObject({
      'x-kubernetes-patch-strategy': 'merge,retainKeys',
      'x-kubernetes-patch-merge-key': 'name',
    })
    expect(podSpec.required).toEqual(['containers'])
    expect(
      prop(component('apis/apps/v1', APPS + 'DeploymentSpec'), 'strategy')[
        'x-kubernetes-patch-strategy'
      ],
    ).toBe('retainKeys')
    expect(component('apis/apps/v1', APPS + 'DeploymentSpec').required).toEqual([
      'selector',
      'template',
    ])
    expect(prop(component('api/v1', META + 'ObjectMeta'), 'finalizers')).toMatchObject({
      'x-kubernetes-list-type': 'set',
      'x-kubernetes-patch-strategy': 'merge',
    })
  })

  it('maps each scalar as upstream does', () => {
    const meta = component('api/v1', META + 'ObjectMeta')
    expect(prop(meta, 'creationTimestamp')).toMatchObject({ type: 'string', format: 'date-time' })
    expect(prop(meta, 'generation')).toMatchObject({ type: 'integer', format: 'int64' })
    expect(prop(meta, 'labels')).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string' },
    })
    expect(prop(component('api/v1', CORE + 'Secret'), 'data')).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string', format: 'byte' },
    })
    expect(prop(component('api/v1', META + 'ManagedFieldsEntry'), 'fieldsV1')).toMatchObject({
      'x-kubernetes-preserve-unknown-fields': true,
    })
    expect(prop(component('api/v1', CORE + 'PodSpec'), 'restartPolicy')).toMatchObject({
      type: 'string',
      enum: ['Always', 'OnFailure', 'Never'],
    })

    const maxSurge = prop(component('apis/apps/v1', APPS + 'RollingUpdateDeployment'), 'maxSurge')
    const intOrString = component(
      'apis/apps/v1',
      refName((maxSurge.allOf as Schema[])[0]!.$ref as string),
    )
    expect(intOrString).toMatchObject({
      format: 'int-or-string',
      'x-kubernetes-int-or-string': true,
      oneOf: [{ type: 'integer' }, { type: 'string' }],
    })
    const limits = prop(component('api/v1', CORE + 'ResourceRequirements'), 'limits')
    expect(limits).toMatchObject({
      type: 'object',
      additionalProperties: {
        $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity',
      },
    })
  })

  it('keeps the PATCH operation kubectl validation looks for, with no requestBody, and a GET returning the kind', () => {
    const item = doc('apis/apps/v1').paths[
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}'
    ] as Record<string, Schema>
    expect(item.patch).toMatchObject({
      'x-kubernetes-group-version-kind': { group: 'apps', version: 'v1', kind: 'Deployment' },
      parameters: [{ name: 'fieldValidation', in: 'query', schema: { type: 'string' } }],
    })
    expect(item.patch).not.toHaveProperty('requestBody')
    expect(item.get).toMatchObject({
      'x-kubernetes-group-version-kind': { group: 'apps', version: 'v1', kind: 'Deployment' },
      responses: {
        '200': {
          content: {
            'application/json': { schema: { $ref: `#/components/schemas/${APPS}Deployment` } },
          },
        },
      },
    })
    expect(doc('api/v1').paths).toHaveProperty(['/api/v1/namespaces/{name}'])
    for (const d of Object.keys(openapiIndex([]).paths).map(doc)) {
      for (const pathItem of Object.values(d.paths) as Record<string, Schema>[])
        expect(pathItem.patch).not.toHaveProperty('requestBody')
    }
  })
})
