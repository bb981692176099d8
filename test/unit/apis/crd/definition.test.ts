import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { formatCause } from '../../../../src/apimachinery/field-errors'
import { CLEANUP_FINALIZER, establishedStatus } from '../../../../src/apis/crd/crd-object'
import {
  compareVersions,
  resourceDefsOf,
  storageDefOf,
} from '../../../../src/apis/crd/resource-defs'
import {
  validateApiApproval,
  validateCrd,
  validateCrdUpdate,
} from '../../../../src/apis/crd/validate-crd'
import { findResource, storeName } from '../../../../src/apis/registry'
import { crdCleanupController } from '../../../../src/controllers/crd-cleanup'
import { customResourceDefinitions } from '../../../../src/controllers/resources'
import type { Cache } from '../../../../src/controllers/runtime/types'

const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' } } } }

function crd(
  overrides: Record<string, unknown> = {},
  meta: Partial<KubeObject['metadata']> = {},
): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com', ...meta },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema }],
      ...overrides,
    },
  }
}

const messages = (o: KubeObject) => validateCrd(o).map(formatCause)

describe('CustomResourceDefinition validation', () => {
  it('accepts a well-formed CRD', () => {
    expect(messages(crd())).toEqual([])
  })

  it('names the fields of a malformed CRD as upstream does', () => {
    expect(messages(crd({}, { name: 'gadgets.example.com' }))).toContain(
      'metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group',
    )
    expect(messages(crd({ group: 'example' }))).toContain(
      'spec.group: Invalid value: "example": should be a domain with at least one dot',
    )
    expect(messages(crd({ scope: 'Global' }))).toContain(
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    )
    expect(messages(crd({ names: { plural: 'widgets' } }))).toContain(
      'spec.names.kind: Required value',
    )
    expect(messages(crd({ versions: [{ name: 'v1', served: true, storage: true }] }))).toContain(
      'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required',
    )
    const twoStorage = crd({
      versions: [
        { name: 'v1', served: true, storage: true, schema },
        { name: 'v2', served: true, storage: true, schema },
      ],
    })
    expect(
      messages(twoStorage).some(
        (m) =>
          m.startsWith('spec.versions: Invalid value') &&
          m.endsWith('must have exactly one version marked as storage version'),
      ),
    ).toBe(true)
    const badColumn = crd({
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema,
          additionalPrinterColumns: [{ name: 'X', type: 'float', jsonPath: '.spec.x' }],
        },
      ],
    })
    expect(messages(badColumn)).toContain(
      'spec.versions[0].additionalPrinterColumns[0].type: Unsupported value: "float": supported values: "integer", "number", "string", "boolean", "date"',
    )
  })

  it('asks API approval of a CRD in a Kubernetes group, and never refuses an update that keeps its approval state', () => {
    const leases = (annotations?: Record<string, string>) =>
      crd(
        { group: 'coordination.k8s.io', names: { plural: 'leases', kind: 'Lease' } },
        { name: 'leases.coordination.k8s.io', ...(annotations ? { annotations } : {}) },
      )
    const approval = (o: KubeObject, old?: KubeObject) =>
      validateApiApproval(o, old).map(formatCause)
    expect(approval(leases())).toEqual([
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ])
    expect(approval(leases({ 'api-approved.kubernetes.io': 'maybe' }))).toEqual([
      'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "maybe": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
    ])
    expect(
      approval(
        leases({ 'api-approved.kubernetes.io': 'https://github.com/kubernetes/kubernetes/pull/1' }),
      ),
    ).toEqual([])
    expect(approval(leases({ 'api-approved.kubernetes.io': 'unapproved, experimental' }))).toEqual(
      [],
    )
    expect(
      approval(
        crd(
          { group: 'x.kubernetes.io', names: { plural: 'widgets', kind: 'Widget' } },
          { name: 'widgets.x.kubernetes.io' },
        ),
      ),
    ).toHaveLength(1)
    expect(approval(crd())).toEqual([])
    expect(approval(leases(), leases())).toEqual([])
    expect(
      validateCrdUpdate(leases(), leases({ 'api-approved.kubernetes.io': 'maybe' })).map(
        formatCause,
      ),
    ).toHaveLength(1)
  })

  it('keeps a custom resource out of every built-in store, whatever its CRD names', () => {
    const o = crd(
      { group: 'coordination.k8s.io', names: { plural: 'leases', kind: 'Lease' } },
      { name: 'leases.coordination.k8s.io' },
    )
    const custom = storageDefOf(o)!
    expect(storeName(custom)).not.toBe(
      storeName(findResource('coordination.k8s.io', 'v1', 'leases')!),
    )
    expect(storeName(custom)).toBe('custom:coordination.k8s.io/leases')
    expect(storeName(storageDefOf(crd())!)).toBe('example.com/widgets')
  })

  it('refuses a schema pattern that is not a Go regular expression', () => {
    const withPattern = (pattern: string) =>
      crd({
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', properties: { a: { type: 'string', pattern } } },
                },
              },
            },
          },
        ],
      })
    expect(messages(withPattern('+'))).toEqual([
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a].pattern: Invalid value: "+": must be a valid regular expression, but isn\'t: error parsing regexp: missing argument to repetition operator: `+`',
    ])
    expect(messages(withPattern('(?<=x)y'))).toHaveLength(1)
    expect(messages(withPattern('^[a-z]+(\\.[a-z]+)*$'))).toEqual([])
  })

  it('keeps group, scope and plural immutable', () => {
    const next = crd({ scope: 'Cluster' })
    expect(validateCrdUpdate(crd(), next).map(formatCause)).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
    ])
  })
})

describe('what a CRD serves', () => {
  it('serves nothing until Established, then each served version, preferred first', () => {
    const versions = ['v1beta1', 'v2', 'v1', 'v1alpha1'].map((name) => ({
      name,
      served: name !== 'v1alpha1',
      storage: name === 'v1',
      schema,
    }))
    const o = crd({ versions })
    expect(resourceDefsOf(o)).toEqual([])
    o.status = establishedStatus(o, '2026-01-01T00:00:00Z')
    expect(resourceDefsOf(o).map((d) => d.version)).toEqual(['v2', 'v1', 'v1beta1'])
    expect(storageDefOf(o)?.version).toBe('v1')
    expect(o.status).toMatchObject({
      acceptedNames: {
        kind: 'Widget',
        listKind: 'WidgetList',
        singular: 'widget',
        plural: 'widgets',
      },
      storedVersions: ['v1'],
    })
  })

  it('orders versions by Kubernetes version priority', () => {
    expect(
      ['v1alpha1', 'foo', 'v2beta1', 'v10', 'v2', 'v1beta2', 'v1beta1'].sort(compareVersions),
    ).toEqual(['v10', 'v2', 'v2beta1', 'v1beta2', 'v1beta1', 'v1alpha1', 'foo'])
  })

  it('keeps the transition time of a condition that does not change', () => {
    const o = crd()
    o.status = establishedStatus(o, '2026-01-01T00:00:00Z')
    const again = establishedStatus(o, '2026-02-01T00:00:00Z') as {
      conditions: { lastTransitionTime: string }[]
    }
    expect(again.conditions.map((c) => c.lastTransitionTime)).toEqual([
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00Z',
    ])
  })
})

describe('crd-cleanup controller', () => {
  const cacheOf = (objects: KubeObject[]): Cache => ({
    get: (_r, _ns, name) => objects.find((o) => o.metadata.name === name),
    list: () => objects,
  })
  const controller = crdCleanupController()

  it('ignores a CRD that is not being deleted', () => {
    const live = crd({}, { finalizers: [CLEANUP_FINALIZER] })
    const cache = cacheOf([live])
    expect(controller.watches.allKeys(cache)).toEqual([])
    expect(controller.watches.keysFor(customResourceDefinitions, live, cache)).toEqual([])
    expect(controller.reconcile('widgets.example.com', cache, 0).actions).toEqual([])
  })

  it('marks a deleted CRD Terminating and purges its objects until they are gone', () => {
    const deleted = crd(
      {},
      { finalizers: [CLEANUP_FINALIZER], deletionTimestamp: '2026-01-01T00:00:00Z' },
    )
    const cache = cacheOf([deleted])
    expect(controller.watches.allKeys(cache)).toEqual(['widgets.example.com'])
    const outcome = controller.reconcile(
      'widgets.example.com',
      cache,
      Date.parse('2026-01-01T00:00:05Z'),
    )
    expect(outcome.actions.map((a) => a.type)).toEqual(['patch', 'purgeCustomResources'])
    expect(outcome.actions[0]).toMatchObject({
      subresource: 'status',
      patch: {
        status: {
          conditions: [
            { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress' },
          ],
        },
      },
    })
    expect(outcome.requeueAfterMs).toBeGreaterThan(0)
  })
})
