/** Who a request authenticated as: authentication/v1 UserInfo. */
export interface UserInfo {
  username: string
  uid?: string
  groups: string[]
  extra?: Record<string, string[]>
}

/** The superuser group: kube-apiserver allows its members everything without consulting RBAC. */
export const mastersGroup = 'system:masters'
