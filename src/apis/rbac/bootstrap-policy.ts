/**
 * The default ClusterRoles and ClusterRoleBindings every cluster starts with, after upstream's
 * bootstrap policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), narrowed to the resources
 * this server serves. Each carries `rbac.authorization.kubernetes.io/autoupdate: "true"`, so the
 * startup reconcile adds back what is missing unless an administrator set it to "false".
 */
import type { KubeObject } from '../../apimachinery/types'
import { nodeRules } from './node-rules'
import { NODE_SETTINGS_NAME, NODE_SETTINGS_NAMESPACE } from '../../agent-protocol/node-settings'
import { rbacGroup, type BindingObject, type PolicyRule, type RoleObject } from './types'

export const autoUpdateAnnotation = 'rbac.authorization.kubernetes.io/autoupdate'
export const aggregateToAdmin = 'rbac.authorization.k8s.io/aggregate-to-admin'
export const aggregateToEdit = 'rbac.authorization.k8s.io/aggregate-to-edit'
export const aggregateToView = 'rbac.authorization.k8s.io/aggregate-to-view'

const read = ['get', 'list', 'watch']
const write = ['create', 'update', 'patch', 'delete', 'deletecollection']
const readWrite = [...read, ...write]

const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({
  verbs,
  apiGroups,
  resources,
})
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({
  verbs,
  nonResourceURLs,
})

const healthURLs = ['/healthz', '/livez', '/readyz', '/version', '/version/']

function meta(name: string, labels: Record<string, string> = {}): KubeObject['metadata'] {
  return {
    name,
    labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...labels },
    annotations: { [autoUpdateAnnotation]: 'true' },
  }
}

function clusterRole(
  name: string,
  rules: PolicyRule[],
  labels?: Record<string, string>,
  aggregateFrom?: string,
): RoleObject {
  const role: RoleObject = {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRole',
    metadata: meta(name, labels),
    rules,
  }
  if (aggregateFrom)
    role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [aggregateFrom]: 'true' } }] }
  return role
}

function groupBinding(name: string, groups: string[], role = name): BindingObject {
  return {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: meta(name),
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: role },
    subjects: groups.map((g) => ({ apiGroup: rbacGroup, kind: 'Group', name: g })),
  }
}

export const bootstrapClusterRoles: RoleObject[] = [
  clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
  clusterRole('admin', [], undefined, aggregateToAdmin),
  clusterRole('edit', [], { [aggregateToAdmin]: 'true' }, aggregateToEdit),
  clusterRole('view', [], { [aggregateToEdit]: 'true' }, aggregateToView),
  clusterRole(
    'system:aggregate-to-admin',
    [
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      rule(readWrite, [rbacGroup], ['roles', 'rolebindings']),
    ],
    {
      [aggregateToAdmin]: 'true',
    },
  ),
  clusterRole(
    'system:aggregate-to-edit',
    [
      rule(
        read,
        [''],
        ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy'],
      ),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(write, [''], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
      rule(['create'], [''], ['pods/eviction']),
      rule(
        write,
        [''],
        [
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/proxy',
          'persistentvolumeclaims',
          'configmaps',
          'secrets',
          'events',
        ],
      ),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(
        write,
        ['apps'],
        [
          'statefulsets',
          'statefulsets/scale',
          'daemonsets',
          'deployments',
          'deployments/scale',
          'deployments/rollback',
          'replicasets',
          'replicasets/scale',
        ],
      ),
      rule(write, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(write, ['batch'], ['jobs', 'cronjobs']),
      rule(write, ['policy'], ['poddisruptionbudgets']),
      rule(write, ['networking.k8s.io'], ['networkpolicies', 'ingresses']),
      rule(write, ['coordination.k8s.io'], ['leases']),
    ],
    { [aggregateToEdit]: 'true' },
  ),
  clusterRole(
    'system:aggregate-to-view',
    [
      rule(
        read,
        [''],
        [
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'configmaps',
        ],
      ),
      rule(
        read,
        [''],
        [
          'limitranges',
          'resourcequotas',
          'bindings',
          'events',
          'pods/status',
          'resourcequotas/status',
          'namespaces/status',
          'replicationcontrollers/status',
          'pods/log',
        ],
      ),
      rule(read, [''], ['namespaces']),
      rule(read, ['discovery.k8s.io'], ['endpointslices']),
      rule(
        read,
        ['apps'],
        [
          'controllerrevisions',
          'statefulsets',
          'statefulsets/status',
          'statefulsets/scale',
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/status',
          'deployments/scale',
          'replicasets',
          'replicasets/status',
          'replicasets/scale',
        ],
      ),
      rule(read, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(read, ['batch'], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
      rule(read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(read, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
      rule(read, ['coordination.k8s.io'], ['leases']),
    ],
    { [aggregateToView]: 'true' },
  ),
  clusterRole('system:basic-user', [
    rule(
      ['create'],
      ['authorization.k8s.io'],
      ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
    ),
    rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
  ]),
  clusterRole('system:discovery', [
    urls(
      ['get'],
      [
        '/api',
        '/api/*',
        '/apis',
        '/apis/*',
        '/healthz',
        '/livez',
        '/openapi',
        '/openapi/*',
        '/readyz',
        '/version',
        '/version/',
      ],
    ),
  ]),
  clusterRole('system:public-info-viewer', [urls(['get'], healthURLs)]),
  clusterRole('system:service-account-issuer-discovery', [
    urls(
      ['get'],
      [
        '/.well-known/openid-configuration',
        '/.well-known/openid-configuration/',
        '/openid/v1/jwks',
        '/openid/v1/jwks/',
      ],
    ),
  ]),
  clusterRole('system:node', nodeRules),
  clusterRole('system:persistent-volume-provisioner', [
    rule(['create', 'delete', 'get', 'list', 'watch'], [''], ['persistentvolumes']),
    rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
    rule(read, ['storage.k8s.io'], ['storageclasses']),
    rule(['create', 'patch', 'update', 'watch'], [''], ['events']),
  ]),
  clusterRole('system:auth-delegator', [
    rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  ]),
]

export const bootstrapClusterRoleBindings: BindingObject[] = [
  groupBinding('cluster-admin', ['system:masters']),
  groupBinding('system:basic-user', ['system:authenticated']),
  groupBinding('system:discovery', ['system:authenticated']),
  groupBinding('system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
  groupBinding('system:service-account-issuer-discovery', ['system:serviceaccounts']),
]

const nodeSettingsReader = 'edgeplane:node-settings-reader'

/**
 * The default Roles, and RoleBindings of their own name: as kubeadm lets everyone read
 * kube-public/cluster-info, every authenticated user may read what this control plane publishes
 * to the nodes that join it (see src/agent-protocol/node-settings.ts).
 */
export const bootstrapRoles: RoleObject[] = [
  {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'Role',
    metadata: { ...meta(nodeSettingsReader), namespace: NODE_SETTINGS_NAMESPACE },
    rules: [
      {
        verbs: ['get'],
        apiGroups: [''],
        resources: ['configmaps'],
        resourceNames: [NODE_SETTINGS_NAME],
      },
    ],
  },
]

export const bootstrapRoleBindings: BindingObject[] = [
  {
    apiVersion: `${rbacGroup}/v1`,
    kind: 'RoleBinding',
    metadata: { ...meta(nodeSettingsReader), namespace: NODE_SETTINGS_NAMESPACE },
    roleRef: { apiGroup: rbacGroup, kind: 'Role', name: nodeSettingsReader },
    subjects: [{ apiGroup: rbacGroup, kind: 'Group', name: 'system:authenticated' }],
  },
]
