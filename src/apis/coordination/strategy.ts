/** coordination.k8s.io/v1 Lease: its strategy. */
import type { KindStrategy } from '../kind-strategy'
import { nodeLeaseDeadline } from './node-lease'

export const leaseStrategy: KindStrategy = {
  // Renewed every few seconds by each node (and leader election): one log row per Lease, not per renewal.
  compactsUpdatesInPlace: true,
  deadline: (lease, config) =>
    config.nodeMonitorGracePeriodMs === undefined
      ? undefined
      : nodeLeaseDeadline(lease, config.nodeMonitorGracePeriodMs),
}
