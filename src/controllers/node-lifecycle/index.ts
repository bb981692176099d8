export { nodeLifecycleController, type NodeLifecycleOptions } from './controller'
export { reconcileNode } from './reconcile'
export { parseGracePeriod } from './grace-period'
export { DEFAULT_GRACE_PERIOD_MS, DEFAULT_STARTUP_GRACE_PERIOD_MS, NODE_LEASE_NAMESPACE } from './heartbeat'
