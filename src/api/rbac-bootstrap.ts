import type { Env } from '../env'
import type { KubeObject } from '../apimachinery/types'
import { findResource, rbacGroup } from '../apis/registry'
import { storeFor } from '../client/stores'
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from '../apis/rbac/bootstrap-policy'
import { aggregateRoles } from '../apis/rbac/aggregate'
import { reconcileBinding, reconcileRole } from '../apis/rbac/reconcile'
import type { BindingObject, RoleObject } from '../apis/rbac/types'

const clusterRolesDef = findResource(rbacGroup, 'v1', 'clusterroles')!
const clusterRoleBindingsDef = findResource(rbacGroup, 'v1', 'clusterrolebindings')!
const opts = { fieldManager: 'kube-apiserver' }

let reconciled: Promise<void> | undefined

/**
 * Reconciles the default ClusterRoles and ClusterRoleBindings into the stores once per isolate:
 * missing ones are created (aggregated roles with their rules filled in), stored ones get back
 * what they lack.
 */
export function ensureRbacBootstrap(env: Env): Promise<void> {
  reconciled ??= reconcileDefaults(env).catch((e) => {
    reconciled = undefined
    throw e
  })
  return reconciled
}

async function reconcileDefaults(env: Env): Promise<void> {
  const roles = storeFor(env, clusterRolesDef)
  const bindings = storeFor(env, clusterRoleBindingsDef)
  await Promise.all(
    aggregateRoles(bootstrapClusterRoles).map(async (expected) => {
      const target = { def: clusterRolesDef, name: expected.metadata.name! }
      const existing = await roles.get(target)
      if (!existing.ok) return void (await roles.create(target, clone(expected), opts))
      const next = reconcileRole(JSON.parse(existing.value) as RoleObject, expected)
      if (next) await roles.update(target, next, undefined, opts)
    }),
  )
  await Promise.all(
    bootstrapClusterRoleBindings.map(async (expected) => {
      const target = { def: clusterRoleBindingsDef, name: expected.metadata.name! }
      const existing = await bindings.get(target)
      if (!existing.ok) return void (await bindings.create(target, clone(expected), opts))
      const plan = reconcileBinding(JSON.parse(existing.value) as BindingObject, expected)
      if (plan.action === 'update') await bindings.update(target, plan.object, undefined, opts)
      if (plan.action === 'recreate') {
        await bindings.delete(target, {})
        await bindings.create(target, clone(plan.object), opts)
      }
    }),
  )
}

const clone = <T extends KubeObject>(o: T): T => JSON.parse(JSON.stringify(o)) as T
