import type { PolicyRule } from './types'

const read = ['get', 'list', 'watch']

/**
 * What the system:node ClusterRole grants for the resources the Node authorizer does not subdivide
 * (narrowed to what this server serves and an agent needs): nodes, pods, secrets, configmaps and
 * claims are decided in src/api/authorization/node-graph.ts, and NodeRestriction (src/admission/node-restriction.ts) limits the writes to the node's
 * own objects.
 */
export const nodeRules: PolicyRule[] = [
  { apiGroups: [''], resources: ['services', 'endpoints'], verbs: read },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'update', 'patch'] },
  {
    apiGroups: ['coordination.k8s.io'],
    resources: ['leases'],
    verbs: ['get', 'create', 'update', 'patch'],
  },
]
