import type { Env } from '../env'
import type { ChangeType, KubeObject } from '../apimachinery/types'
import type { ControllerDefinition, ResourceRef } from './runtime/types'
import { schedulerController } from './scheduler'
import { parsePodSecuritySettings } from '../apis/pod-security/settings'
import { evictionRatesFrom, nodeLifecycleController, parseGracePeriod } from './node-lifecycle'
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
import { nodeCidrSettings, nodeIpamController } from './node-ipam'
import { edgeStatusController } from './edge-status'
import { persistentVolumeController } from './persistentvolume'
import { disruptionController } from './disruption'
import { resourceQuotaController } from './resourcequota'
import { horizontalPodAutoscalerController } from './horizontal-pod-autoscaler'
import { defaultLbDomain } from '../apis/ingress-routes'
import { apiHostnames } from '../apis/host-ownership'
import { rootCaPublisher } from './namespace-defaults/root-ca'
import { serviceAccountsController } from './namespace-defaults/service-accounts'
import { kubernetesServiceController, parseApiEndpoint } from './kubernetes-service'
import { defaultServiceClusterIpRange } from '../apis/service-ips'
import { csrSigningController, defaultSigningDurationSeconds, signingDurationSeconds } from './csr-signing'
import { apiServiceAutoregisterController } from './apiservice-autoregister'
import { apiServiceAvailabilityController } from './apiservice-availability'
import { flowcontrolController } from './flowcontrol'

/** Every controller, by name. */
const controllers: Record<string, (env: Env) => ControllerDefinition> = {
  scheduler: (env) => schedulerController({ podSecurity: parsePodSecuritySettings(env).settings }),
  'node-ipam': (env) => nodeIpamController(nodeCidrSettings(env.CLUSTER_CIDR, env.NODE_CIDR_MASK_SIZE)),
  'node-lifecycle': (env) => nodeLifecycleController({ gracePeriodMs: parseGracePeriod(env.EDGEPLANE_NODE_MONITOR_GRACE_PERIOD), evictionRates: evictionRatesFrom(env) }),
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
  'csr-signing': (env) => csrSigningController({ configured: !!env.CLUSTER_CA_CERT && !!env.CLUSTER_CA_KEY && (!!env.EDGEPLANE_CLIENT_CERT_SECRET || env.EDGEPLANE_CLOUDFLARE_MTLS === 'true'), maxDurationSeconds: signingDurationSeconds(env.CLUSTER_SIGNING_DURATION_SECONDS, defaultSigningDurationSeconds) }),
  'edge-status': (env) =>
    edgeStatusController({
      address: env.EDGEPLANE_INGRESS_ADDRESS || env.EDGEPLANE_API_HOST?.split(',')[0]?.trim() || undefined,
      lbDomain: env.EDGEPLANE_LB_DOMAIN || defaultLbDomain,
      apiHosts: apiHostnames(env.EDGEPLANE_API_HOST, env.EDGEPLANE_API_ENDPOINT),
    }),
  'root-ca-cert-publisher': (env) => rootCaPublisher(env.EDGEPLANE_ROOT_CA ?? ''),
  serviceaccount: () => serviceAccountsController(),
  'kubernetes-service': (env) => kubernetesServiceController(env.SERVICE_CLUSTER_IP_RANGE || defaultServiceClusterIpRange, parseApiEndpoint(env.EDGEPLANE_API_ENDPOINT)),
  'apiservice-autoregister': () => apiServiceAutoregisterController(),
  'apiservice-availability': () => apiServiceAvailabilityController(),
  'priority-and-fairness': () => flowcontrolController(),
}

export function controllerNames(): string[] {
  return Object.keys(controllers)
}

export function controllerDefinition(name: string, env: Env): ControllerDefinition {
  const build = controllers[name]
  if (!build) throw new Error(`unknown controller ${name}`)
  return build(env)
}

let watchers: Map<string, { name: string; ref: ResourceRef; def: ControllerDefinition }[]> | undefined

/**
 * The controllers to notify of a change to the store named `group/plural` (e.g. `core/pods`):
 * those watching it whose `wakesOn` (if any) wants this change.
 */
export function watchersOf(storeName: string, type: ChangeType, object: KubeObject, previous?: KubeObject): string[] {
  if (!watchers) {
    watchers = new Map()
    for (const [name, build] of Object.entries(controllers)) {
      const def = build({} as Env)
      for (const ref of def.watches.kinds) {
        const key = `${ref.group || 'core'}/${ref.plural}`
        watchers.set(key, [...(watchers.get(key) ?? []), { name, ref, def }])
      }
    }
  }
  return (watchers.get(storeName) ?? []).filter((w) => w.def.watches.wakesOn?.(w.ref, type, object, previous) ?? true).map((w) => w.name)
}
