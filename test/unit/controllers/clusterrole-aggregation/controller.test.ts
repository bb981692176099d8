import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { clusterRoleAggregationController } from '../../../../src/controllers/clusterrole-aggregation'
import { clusterRoles } from '../../../../src/controllers/resources'
import type { Cache } from '../../../../src/controllers/runtime/types'

const cacheOf = (objects: KubeObject[]): Cache => ({
  get: (_r, _ns, name) => objects.find((o) => o.metadata.name === name),
  list: () => objects,
})
const role = (
  name: string,
  extra: Record<string, unknown> = {},
  labels?: Record<string, string>,
): KubeObject =>
  ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name, resourceVersion: '7', ...(labels ? { labels } : {}) },
    ...extra,
  }) as KubeObject
const rule = (resource: string) => ({
  verbs: ['get'],
  apiGroups: ['example.com'],
  resources: [resource],
})

describe('clusterrole-aggregation controller', () => {
  const controller = clusterRoleAggregationController()
  const view = role('view', {
    aggregationRule: {
      clusterRoleSelectors: [
        { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      ],
    },
    rules: [],
  })
  const widgets = role(
    'widget-view',
    { rules: [rule('widgets'), rule('widgets')] },
    { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
  )
  const gadgets = role(
    'gadget-view',
    { rules: [rule('gadgets')] },
    { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
  )
  const other = role('other', { rules: [rule('secrets')] })

  it('keys every aggregated role on any ClusterRole change', () => {
    const cache = cacheOf([view, widgets, other])
    expect(controller.watches.allKeys(cache)).toEqual(['view'])
    expect(controller.watches.keysFor(clusterRoles, other, cache)).toEqual(['view'])
  })

  it('writes the matched roles’ rules, in name order and without duplicates, with the resourceVersion read', () => {
    const outcome = controller.reconcile('view', cacheOf([view, widgets, gadgets, other]), 0)
    expect(outcome.actions).toEqual([
      {
        type: 'update',
        resource: clusterRoles,
        object: { ...view, rules: [rule('gadgets'), rule('widgets')] },
      },
    ])
  })

  it('does nothing when the rules are already those, or for a role that does not aggregate', () => {
    const current = { ...view, rules: [rule('gadgets'), rule('widgets')] }
    expect(controller.reconcile('view', cacheOf([current, widgets, gadgets]), 0).actions).toEqual(
      [],
    )
    expect(controller.reconcile('other', cacheOf([other]), 0).actions).toEqual([])
    expect(controller.reconcile('gone', cacheOf([]), 0).actions).toEqual([])
  })

  it('drops the rules of a role that stops matching', () => {
    const current = { ...view, rules: [rule('gadgets'), rule('widgets')] }
    const unlabelled = { ...widgets, metadata: { ...widgets.metadata, labels: {} } }
    const outcome = controller.reconcile('view', cacheOf([current, unlabelled, gadgets]), 0)
    expect(outcome.actions).toEqual([
      { type: 'update', resource: clusterRoles, object: { ...current, rules: [rule('gadgets')] } },
    ])
  })
})
