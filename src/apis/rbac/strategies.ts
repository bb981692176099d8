/** The rbac.authorization.k8s.io/v1 kinds' strategies, by resource. */
import type { KindStrategy } from '../kind-strategy'
import { defaultRbacObject, validateRbacObject, validateRbacUpdate } from './validate'

const rbacStrategy = (kind: string): KindStrategy => ({
  defaults: (obj) => defaultRbacObject(kind, obj),
  validate: (obj) => validateRbacObject(kind, obj),
  validateUpdate: (old, obj) => validateRbacUpdate(kind, old, obj),
})

export const rbacStrategies: Record<string, KindStrategy> = {
  roles: rbacStrategy('Role'),
  rolebindings: rbacStrategy('RoleBinding'),
  clusterroles: rbacStrategy('ClusterRole'),
  clusterrolebindings: rbacStrategy('ClusterRoleBinding'),
}
