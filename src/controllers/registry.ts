import type { ChangeType, KubeObject } from '../apimachinery/types'
import type { ControllerDefinition, ResourceRef } from './runtime/types'
import { sameResource } from './resources'
import { schedulerController } from './scheduler'
import { nodeLifecycleController } from './node-lifecycle'
import { garbageCollectedResources, garbageCollector } from './garbage-collector'
import { namespaceController, namespacedResources } from './namespace'
import { podGcController } from './pod-gc'
import { replicaSetController } from './replicaset'
import { replicationControllerController } from './replicationcontroller'
import { deploymentController } from './deployment'
import { statefulSetController } from './statefulset'
import { daemonSetController } from './daemonset'
import { jobController } from './job'
import { cronJobController } from './cronjob'
import { endpointsController } from './endpoints'
import { endpointSliceController } from './endpointslice'
import { crdCleanupController } from './crd-cleanup'
import { clusterRoleAggregationController } from './clusterrole-aggregation'
import { nodeIpamController } from './node-ipam'
import { edgeStatusController } from './edge-status'
import { persistentVolumeController } from './persistentvolume'
import { disruptionController } from './disruption'
import { resourceQuotaController } from './resourcequota'
import { horizontalPodAutoscalerController } from './horizontal-pod-autoscaler'
import { rootCaPublisher } from './namespace-defaults/root-ca'
import { serviceAccountsController } from './namespace-defaults/service-accounts'
import { kubernetesServiceController } from './kubernetes-service'
import { csrSigningController } from './csr-signing'
import { apiServiceAutoregisterController } from './apiservice-autoregister'
import { apiServiceAvailabilityController } from './apiservice-availability'
import { flowcontrolController } from './flowcontrol'
import { parseSettings, settingsOf, type Settings } from '../settings/settings'
import type { Variables } from '../settings/variables'

/** Every controller, by name, built with the Worker's settings. */
const controllers: Record<string, (s: Settings) => ControllerDefinition> = {
  scheduler: (s) => schedulerController({ podSecurity: s.podSecurity.settings }),
  'node-ipam': (s) => {
    if (s.nodeCidrs instanceof Error) throw s.nodeCidrs
    return nodeIpamController(s.nodeCidrs)
  },
  'node-lifecycle': (s) =>
    nodeLifecycleController({
      gracePeriodMs: s.nodeMonitorGracePeriodMs,
      evictionRates: s.evictionRates,
    }),
  'garbage-collector': () => garbageCollector([...garbageCollectedResources]),
  namespace: () => namespaceController(namespacedResources()),
  'pod-gc': () => podGcController(),
  replicaset: () => replicaSetController(),
  replicationcontroller: () => replicationControllerController(),
  deployment: () => deploymentController(),
  statefulset: () => statefulSetController(),
  daemonset: () => daemonSetController(),
  job: () => jobController(),
  cronjob: () => cronJobController(),
  endpoints: () => endpointsController(),
  endpointslice: () => endpointSliceController(),
  'crd-cleanup': () => crdCleanupController(),
  'horizontal-pod-autoscaler': () => horizontalPodAutoscalerController(),
  'clusterrole-aggregation': () => clusterRoleAggregationController(),
  persistentvolume: () => persistentVolumeController(),
  disruption: () => disruptionController(),
  resourcequota: () => resourceQuotaController(),
  // Only where its certificates authenticate: a cluster CA, and the launcher's client-certificate front or Cloudflare's mTLS.
  'csr-signing': (s) =>
    csrSigningController({
      configured: s.clusterSigning,
      maxDurationSeconds: s.signingDurationSeconds,
    }),
  'edge-status': (s) =>
    edgeStatusController({
      address: s.ingressAddress,
      lbDomain: s.lbDomain,
      apiHosts: s.apiHostnames,
    }),
  'root-ca-cert-publisher': (s) => rootCaPublisher(s.rootCa),
  serviceaccount: () => serviceAccountsController(),
  'kubernetes-service': (s) => kubernetesServiceController(s.serviceClusterIpRange, s.apiEndpoint),
  'apiservice-autoregister': () => apiServiceAutoregisterController(),
  'apiservice-availability': () => apiServiceAvailabilityController(),
  'priority-and-fairness': () => flowcontrolController(),
}

export function controllerNames(): string[] {
  return Object.keys(controllers)
}

export function controllerDefinition(name: string, env: Variables): ControllerDefinition {
  const build = controllers[name]
  if (!build) throw new Error(`unknown controller ${name}`)
  return build(settingsOf(env))
}

type Watcher = { name: string; ref: ResourceRef; def: ControllerDefinition }

let watchers: Map<string, Watcher[]> | undefined

/** Per store name (`group/plural`), the controllers watching its kind. */
function watchersByStore(): Map<string, Watcher[]> {
  if (!watchers) {
    watchers = new Map()
    const defaults = parseSettings({})
    for (const [name, build] of Object.entries(controllers)) {
      const def = build(defaults)
      for (const ref of def.watches.kinds) {
        const key = `${ref.group || 'core'}/${ref.plural}`
        watchers.set(key, [...(watchers.get(key) ?? []), { name, ref, def }])
      }
    }
  }
  return watchers
}

/**
 * The controllers to notify of a change to the store named `group/plural` (e.g. `core/pods`):
 * those watching it whose `wakesOn` (if any) wants this change.
 */
export function watchersOf(
  storeName: string,
  type: ChangeType,
  object: KubeObject,
  previous?: KubeObject,
): string[] {
  return (watchersByStore().get(storeName) ?? [])
    .filter((w) => w.def.watches.wakesOn?.(w.ref, type, object, previous) ?? true)
    .map((w) => w.name)
}

/** The controllers to notify when objects of the store named `group/plural` pass their deadline: those that watch its deadlines. */
export function deadlineWatchersOf(storeName: string): string[] {
  return (watchersByStore().get(storeName) ?? [])
    .filter((w) => w.def.watches.deadlines?.some((r) => sameResource(r, w.ref)))
    .map((w) => w.name)
}
