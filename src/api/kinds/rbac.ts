import { escalationGuard } from '../authorization/rbac-write'
import { invalidateRbacPolicy } from '../authorization/rbac-snapshot'
import { requestUser } from '../authentication/user'
import type { KindApi } from './types'

/**
 * A write to an RBAC kind: every create, update and patch stores only an object that passes the
 * escalation check, checked as it is stored (../authorization/rbac-write.ts); any write makes this isolate's policy
 * snapshot re-check the stores on the next request.
 */
export const rbacApi: KindApi = {
  async write(req, env, def, _info, serve) {
    try {
      return await serve(req, escalationGuard(env, requestUser(req), def))
    } finally {
      invalidateRbacPolicy()
    }
  },
}
