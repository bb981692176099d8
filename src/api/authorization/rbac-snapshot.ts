/**
 * The RBAC policy the Worker authorizes with: compiled from the four RBAC stores and kept in the
 * isolate, so authorizing a request costs no Durable Object round trip. At most once every
 * `rbacRecheckMs` one request asks the stores for their resourceVersions (one cheap call each)
 * and re-reads only the kinds that changed; a write to an RBAC kind through this isolate makes
 * the next request check at once. So a change made anywhere takes effect within rbacRecheckMs.
 */
import { unwrap } from '../../apimachinery/status'
import type { StoreBindings } from '../../store-client/bindings'
import type { KubeObject } from '../../apimachinery/types'
import { findResource } from '../../apis/registry'
import { rbacGroup } from '../../apis/resource-table/access'
import type { ResourceDef } from '../../apis/resource-def'
import { storeFor } from '../../store-client/stores'
import { rbacRecheckMs } from '../../config'
import { RbacPolicy, type RbacObjects } from './rbac'
import { ensureRbacBootstrap } from '../bootstrap/rbac'

const kinds: [keyof RbacObjects, ResourceDef][] = [
  ['roles', findResource(rbacGroup, 'v1', 'roles')!],
  ['clusterRoles', findResource(rbacGroup, 'v1', 'clusterroles')!],
  ['roleBindings', findResource(rbacGroup, 'v1', 'rolebindings')!],
  ['clusterRoleBindings', findResource(rbacGroup, 'v1', 'clusterrolebindings')!],
]

interface Snapshot {
  policy: RbacPolicy
  objects: RbacObjects
  revisions: number[]
  checkedAt: number
}

let snapshot: Snapshot | undefined
let loading: Promise<Snapshot> | undefined
let checking: Promise<void> | undefined

/** The current policy: the isolate's snapshot, re-checked against the stores when older than rbacRecheckMs. */
export async function rbacPolicy(env: StoreBindings): Promise<RbacPolicy> {
  if (!snapshot) {
    loading ??= load(env).finally(() => (loading = undefined))
    snapshot = await loading
  } else if (Date.now() - snapshot.checkedAt >= rbacRecheckMs && !checking) {
    // Requests arriving while one checks keep using the snapshot they have.
    checking = recheck(env, snapshot).finally(() => (checking = undefined))
    await checking
  }
  return snapshot.policy
}

/** Makes the next request re-check the stores: called after a write to an RBAC kind. */
export function invalidateRbacPolicy(): void {
  if (snapshot) snapshot.checkedAt = 0
}

async function load(env: StoreBindings): Promise<Snapshot> {
  await ensureRbacBootstrap(env)
  const revisions = await Promise.all(kinds.map(([, def]) => storeFor(env, def).revision()))
  const lists = await Promise.all(kinds.map(([, def]) => listAll(env, def)))
  const objects: RbacObjects = {
    roles: [],
    clusterRoles: [],
    roleBindings: [],
    clusterRoleBindings: [],
  }
  kinds.forEach(([key], i) => (objects[key] = lists[i]!))
  return { policy: new RbacPolicy(objects), objects, revisions, checkedAt: Date.now() }
}

async function recheck(env: StoreBindings, current: Snapshot): Promise<void> {
  const checkedAt = Date.now()
  const revisions = await Promise.all(kinds.map(([, def]) => storeFor(env, def).revision()))
  const changed = kinds.filter((_, i) => revisions[i] !== current.revisions[i])
  if (!changed.length) {
    current.checkedAt = checkedAt
    return
  }
  // A store that went backwards was reset (a fresh state directory): start over, defaults included.
  if (revisions.some((rv, i) => rv < current.revisions[i]!)) {
    snapshot = await load(env)
    return
  }
  const objects = { ...current.objects }
  const lists = await Promise.all(changed.map(([, def]) => listAll(env, def)))
  changed.forEach(([key], i) => (objects[key] = lists[i]!))
  snapshot = { policy: new RbacPolicy(objects), objects, revisions, checkedAt }
}

async function listAll(env: StoreBindings, def: ResourceDef): Promise<KubeObject[]> {
  return unwrap(await storeFor(env, def).list(def.plural, {})).items.map(
    (t) => JSON.parse(t) as KubeObject,
  )
}
