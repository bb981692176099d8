/**
 * What the control plane publishes for its nodes, as kubeadm publishes `kube-public/cluster-info`:
 * a ConfigMap any node (or anyone who may read ConfigMaps there) can read before it joins. Its
 * `nodeMonitorGracePeriodSeconds` is how long a node may go without a heartbeat before the node
 * lifecycle controller marks it Unknown; agents renew their Lease at least four times as often.
 */
export const NODE_SETTINGS_NAMESPACE = 'kube-public'
export const NODE_SETTINGS_NAME = 'edgeplane-node-settings'
export const GRACE_PERIOD_KEY = 'nodeMonitorGracePeriodSeconds'
