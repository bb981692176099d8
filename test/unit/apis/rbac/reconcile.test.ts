import { describe, expect, it } from 'vitest'
import { reconcileBinding, reconcileRole } from '../../../../src/apis/rbac/reconcile'
import {
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
} from '../../../../src/apis/rbac/bootstrap-policy'
import type { BindingObject, RoleObject } from '../../../../src/apis/rbac/types'

const expectedRole = bootstrapClusterRoles.find((r) => r.metadata.name === 'system:basic-user')!
const expectedBinding = bootstrapClusterRoleBindings.find(
  (b) => b.metadata.name === 'system:basic-user',
)!
const stored = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T

describe('reconciling the default policy', () => {
  it('leaves a role that holds everything alone, and adds back what was removed', () => {
    expect(reconcileRole(stored(expectedRole), expectedRole)).toBeUndefined()
    const trimmed: RoleObject = {
      ...stored(expectedRole),
      rules: [
        {
          verbs: ['create'],
          apiGroups: ['authentication.k8s.io'],
          resources: ['selfsubjectreviews'],
        },
        { verbs: ['get'], apiGroups: [''], resources: ['extra'] },
      ],
    }
    const next = reconcileRole(trimmed, expectedRole)!
    expect(next.rules).toContainEqual({ verbs: ['get'], apiGroups: [''], resources: ['extra'] })
    expect(next.rules).toContainEqual({
      verbs: ['create'],
      apiGroups: ['authorization.k8s.io'],
      resources: ['selfsubjectaccessreviews'],
    })
  })

  it('keeps its hands off objects annotated autoupdate=false', () => {
    const pinned: RoleObject = {
      ...stored(expectedRole),
      metadata: {
        name: 'system:basic-user',
        annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' },
      },
      rules: [],
    }
    expect(reconcileRole(pinned, expectedRole)).toBeUndefined()
  })

  it('merges selectors, not rules, of an aggregated role', () => {
    const view = bootstrapClusterRoles.find((r) => r.metadata.name === 'view')!
    const storedView: RoleObject = {
      ...stored(view),
      rules: [{ verbs: ['get'], apiGroups: ['x'], resources: ['y'] }],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { mine: 'true' } }] },
    }
    const next = reconcileRole(storedView, view)!
    expect(next.rules).toEqual([{ verbs: ['get'], apiGroups: ['x'], resources: ['y'] }])
    expect(next.aggregationRule!.clusterRoleSelectors).toEqual([
      { matchLabels: { mine: 'true' } },
      { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
    ])
  })

  it('adds missing subjects to a binding and recreates one pointing at another role', () => {
    expect(reconcileBinding(stored(expectedBinding), expectedBinding)).toEqual({ action: 'none' })
    const extra = { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }
    const emptied: BindingObject = { ...stored(expectedBinding), subjects: [extra] }
    const plan = reconcileBinding(emptied, expectedBinding)
    expect(plan.action).toBe('update')
    expect(plan.action === 'update' && plan.object.subjects).toEqual([
      extra,
      ...expectedBinding.subjects!,
    ])
    const moved: BindingObject = {
      ...stored(expectedBinding),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    }
    expect(reconcileBinding(moved, expectedBinding).action).toBe('recreate')
  })
})
