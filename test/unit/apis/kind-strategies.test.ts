import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import { qualifiedResource } from '../../../src/apimachinery/status'
import { builtinResources, storedResources } from '../../../src/apis/registry'
import type { ResourceDef } from '../../../src/apis/resource-def'
import { kindsWithStrategies, strategyOf } from '../../../src/apis/kind-strategies'
import { subresourceOf } from '../../../src/apis/subresources'
import { validateObject } from '../../../src/apis/validation/validate-object'
import { kindsWithApis } from '../../../src/api/kinds'
import { MemoryStores } from '../../fixtures/memory-stores'

const def = (group: string, plural: string): ResourceDef =>
  storedResources.find((d) => d.group === group && d.plural === plural)!
const builtinNames = new Set(builtinResources.map((d) => qualifiedResource(d.group, d.plural)))

describe('kind strategies', () => {
  it('list every stored built-in resource, and nothing else', () => {
    const stored = storedResources.map((d) => qualifiedResource(d.group, d.plural))
    expect(stored.filter((name) => !kindsWithStrategies.includes(name))).toEqual([])
    expect(kindsWithStrategies.filter((name) => !builtinNames.has(name))).toEqual([])
  })

  it('are found by group and resource: a custom resource of a built-in name has its definition’s strategy', () => {
    const pods = def('', 'pods')
    expect(strategyOf(pods).bind).toBeTypeOf('function')
    const custom: ResourceDef = {
      ...pods,
      custom: { crd: 'pods.example.com', columns: [], terminating: false, multiVersion: false },
    }
    expect(strategyOf(custom).bind).toBeUndefined()
    expect(strategyOf({ group: 'example.com', plural: 'widgets' })).toEqual({})
  })

  it('validate a custom resource against its schema', () => {
    const widgets: ResourceDef = {
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
      plural: 'widgets',
      singular: 'widget',
      namespaced: true,
      subresources: ['status'],
      custom: {
        crd: 'widgets.example.com',
        columns: [],
        terminating: false,
        multiVersion: false,
        schema: {
          type: 'object',
          properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
        },
      },
    }
    const obj = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'default' },
      spec: { size: 'big' },
    } as KubeObject
    expect(validateObject(widgets, obj).map((c) => c.field)).toEqual(['spec.size'])
  })
})

describe('subresource strategies', () => {
  it('are the kind’s own, else the generic status and scale, else none', () => {
    expect(subresourceOf(def('', 'pods'), 'ephemeralcontainers')?.defaulted).toBe(true)
    expect(subresourceOf(def('', 'namespaces'), 'finalize')?.toObject).toBeTypeOf('function')
    expect(subresourceOf(def('apps', 'deployments'), 'status')?.validatesStatus).toBe(true)
    expect(
      subresourceOf(def('certificates.k8s.io', 'certificatesigningrequests'), 'status')
        ?.validatesStatus,
    ).toBeUndefined()
    expect(subresourceOf(def('apps', 'deployments'), 'scale')?.view).toBeTypeOf('function')
    expect(subresourceOf(def('', 'configmaps'), 'finalize')).toBeUndefined()
    expect(subresourceOf(def('', 'pods'), 'constructor')).toBeUndefined()
  })
})

describe('the generic store writer', () => {
  const stores = new MemoryStores(
    () => Date.parse('2025-06-01T12:00:00Z'),
    () => {},
  )
  const configmaps = def('', 'configmaps')
  const target = { def: configmaps, namespace: 'default', name: 'c' }

  it('refuses a subresource the kind does not have, and a binding of a kind that is never bound', async () => {
    const store = stores.store(configmaps)
    expect(
      (await store.create(target, { metadata: { name: 'c' }, data: { a: 'b' } } as KubeObject, {}))
        .ok,
    ).toBe(true)
    const finalize = await store.update(
      target,
      { metadata: { name: 'c' } } as KubeObject,
      'finalize',
      {},
    )
    expect(finalize.ok ? 200 : finalize.status.code).toBe(404)
    const bound = await store.bind(target, 'node-1', undefined, {})
    expect(bound.ok ? 200 : bound.status.code).toBe(405)
  })
})

describe('kind API modules', () => {
  it('are listed for built-in resources only', () => {
    expect(kindsWithApis.filter((name) => !builtinNames.has(name))).toEqual([])
  })
})
