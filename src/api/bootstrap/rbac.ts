import type { StoreBindings } from '../../store-client/bindings'
import type { KubeObject } from '../../apimachinery/types'
import { findResource } from '../../apis/registry'
import { rbacGroup } from '../../apis/resource-table/access'
import type { ResourceDef } from '../../apis/resource-def'
import { storeFor } from '../../store-client/stores'
import {
  bootstrapClusterRoleBindings,
  bootstrapClusterRoles,
  bootstrapRoleBindings,
  bootstrapRoles,
} from '../../apis/rbac/bootstrap-policy'
import { aggregateRoles } from '../../apis/rbac/aggregate'
import { reconcileBinding, reconcileRole } from '../../apis/rbac/reconcile'
import type { BindingObject, RoleObject } from '../../apis/rbac/types'

const clusterRolesDef = findResource(rbacGroup, 'v1', 'clusterroles')!
const clusterRoleBindingsDef = findResource(rbacGroup, 'v1', 'clusterrolebindings')!
const rolesDef = findResource(rbacGroup, 'v1', 'roles')!
const roleBindingsDef = findResource(rbacGroup, 'v1', 'rolebindings')!
const opts = { fieldManager: 'kube-apiserver' }

let reconciled: Promise<void> | undefined

/**
 * Reconciles the default roles and bindings into the stores once per isolate:
 * missing ones are created (aggregated roles with their rules filled in), stored ones get back
 * what they lack.
 */
export function ensureRbacBootstrap(env: StoreBindings): Promise<void> {
  reconciled ??= reconcileDefaults(env).catch((e) => {
    reconciled = undefined
    throw e
  })
  return reconciled
}

async function reconcileDefaults(env: StoreBindings): Promise<void> {
  await Promise.all([
    ...aggregateRoles(bootstrapClusterRoles).map((r) =>
      reconcileRoleObject(env, clusterRolesDef, r),
    ),
    ...bootstrapRoles.map((r) => reconcileRoleObject(env, rolesDef, r)),
  ])
  await Promise.all([
    ...bootstrapClusterRoleBindings.map((b) =>
      reconcileBindingObject(env, clusterRoleBindingsDef, b),
    ),
    ...bootstrapRoleBindings.map((b) => reconcileBindingObject(env, roleBindingsDef, b)),
  ])
}

async function reconcileRoleObject(
  env: StoreBindings,
  def: ResourceDef,
  expected: RoleObject,
): Promise<void> {
  const store = storeFor(env, def)
  const target = { def, namespace: expected.metadata.namespace, name: expected.metadata.name! }
  const existing = await store.get(target)
  if (!existing.ok) return void (await store.create(target, clone(expected), opts))
  const next = reconcileRole(JSON.parse(existing.value) as RoleObject, expected)
  if (next) await store.update(target, next, undefined, opts)
}

async function reconcileBindingObject(
  env: StoreBindings,
  def: ResourceDef,
  expected: BindingObject,
): Promise<void> {
  const store = storeFor(env, def)
  const target = { def, namespace: expected.metadata.namespace, name: expected.metadata.name! }
  const existing = await store.get(target)
  if (!existing.ok) return void (await store.create(target, clone(expected), opts))
  const plan = reconcileBinding(JSON.parse(existing.value) as BindingObject, expected)
  if (plan.action === 'update') await store.update(target, plan.object, undefined, opts)
  if (plan.action === 'recreate') {
    await store.delete(target, {})
    await store.create(target, clone(plan.object), opts)
  }
}

const clone = <T extends KubeObject>(o: T): T => JSON.parse(JSON.stringify(o)) as T
