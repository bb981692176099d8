/**
 * The guard of writes to RBAC kinds: RBAC's escalation check (./rbac-escalation) on the exact
 * object a create, update, patch or server-side apply of a Role, ClusterRole, RoleBinding or
 * ClusterRoleBinding stores, against the policy as it is when that object is computed. The store
 * writes it only from the version checked (../admission/guarded-write), so a concurrent change to
 * the object can never slip between the check and the write. system:masters is never checked.
 */
import type { StoreBindings } from '../../store-client/bindings'
import type { ResourceDef } from '../../apis/resource-def'
import type { UserInfo } from '../../apimachinery/user-info'
import type { WriteGuard } from '../../admission/guarded-write'
import { escalationDenied } from './rbac-escalation'
import { rbacPolicy } from './rbac-snapshot'
import { mastersGroup } from '../authentication/user'

/** The guard of `user`'s writes to the RBAC kind `def`; undefined for system:masters. */
export function escalationGuard(
  env: StoreBindings,
  user: UserInfo,
  def: ResourceDef,
): WriteGuard | undefined {
  if (user.groups.includes(mastersGroup)) return undefined
  return async (object) => escalationDenied(await rbacPolicy(env), user, def, object)
}
