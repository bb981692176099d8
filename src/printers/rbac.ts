/** Tables for the rbac.authorization.k8s.io kinds, as kube-apiserver prints them. */
import { roleRefOf, subjectsOf } from '../apis/rbac/types'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'

/** Role and ClusterRole print their creation time itself, not an age. */
export const rolePrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'Created At',
      'date',
      'CreationTimestamp is a timestamp representing the server time when this object was created.',
    ),
  ],
  cells: (obj) => [objectName(obj), obj.metadata?.creationTimestamp ?? ''],
}

const roleRefDescription =
  'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.'

/** RoleBinding and ClusterRoleBinding: the role as `Kind/name`, the subjects under `-o wide`. */
export const roleBindingPrinter: Printer = {
  columns: [
    nameColumn,
    column('Role', 'string', roleRefDescription),
    ageColumn,
    column('Users', 'string', 'Users in the roleBinding', 1),
    column('Groups', 'string', 'Groups in the roleBinding', 1),
    column('ServiceAccounts', 'string', 'ServiceAccounts in the roleBinding', 1),
  ],
  cells(obj, now) {
    const ref = roleRefOf(obj)
    const users: string[] = []
    const groups: string[] = []
    const accounts: string[] = []
    for (const s of subjectsOf(obj)) {
      if (s.kind === 'User') users.push(s.name)
      else if (s.kind === 'Group') groups.push(s.name)
      else if (s.kind === 'ServiceAccount')
        accounts.push(s.namespace ? `${s.namespace}/${s.name}` : s.name)
    }
    return [
      objectName(obj),
      `${ref.kind}/${ref.name}`,
      objectAge(obj, now),
      users.join(', '),
      groups.join(', '),
      accounts.join(', '),
    ]
  },
}
