import type { UserInfo } from '../../apimachinery/user-info'

/** The component names upstream's schedulers and controllers sign their events with. */
const eventSources: Record<string, string> = {
  scheduler: 'default-scheduler',
  'node-lifecycle': 'node-controller',
  'node-ipam': 'cidrAllocator',
  replicaset: 'replicaset-controller',
  replicationcontroller: 'replication-controller',
  deployment: 'deployment-controller',
  statefulset: 'statefulset-controller',
  daemonset: 'daemonset-controller',
  job: 'job-controller',
  cronjob: 'cronjob-controller',
  endpoints: 'endpoint-controller',
  endpointslice: 'endpoint-slice-controller',
  'garbage-collector': 'garbage-collector-controller',
  namespace: 'namespace-controller',
  'horizontal-pod-autoscaler': 'horizontal-pod-autoscaler',
}

/** The component a controller's events name as their source (its own name when upstream has none for it). */
export function eventSourceOf(controller: string): string {
  return eventSources[controller] ?? controller
}

/**
 * Who a controller's writes are made as, for admission webhooks: the service account
 * kube-controller-manager gives each controller (`--use-service-account-credentials`), and the
 * scheduler's own user.
 */
export function controllerUser(controller: string): UserInfo {
  if (controller === 'scheduler')
    return { username: 'system:kube-scheduler', groups: ['system:authenticated'] }
  const named = eventSources[controller]
  const account = named?.endsWith('-controller') ? named : `${controller}-controller`
  return {
    username: `system:serviceaccount:kube-system:${account}`,
    groups: [
      'system:serviceaccounts',
      'system:serviceaccounts:kube-system',
      'system:authenticated',
    ],
  }
}
