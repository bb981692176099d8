import type { KubeObject } from '../apimachinery/types'
import { defaultNetworkPolicy } from './network-policy'
import { admissionGroup, rbacGroup, type ResourceDef } from './registry'
import { defaultWebhookConfiguration } from './admissionregistration/webhook-configuration'
import { defaultAdmissionPolicyObject, isAdmissionPolicyKind } from './admissionregistration/admission-policy'
import { defaultRbacObject } from './rbac/validate'
import { defaultPriorityClass } from './priority-class'
import { apiregistrationGroup, defaultApiService } from './apiregistration/apiservice'
import { defaultReplicationController } from './replication-controller'
import { defaultStorageObject, initialStorageStatus } from './storage/defaults'
import { defaultLimitRange } from './limit-range/object'
import { defaultHorizontalPodAutoscaler } from './autoscaling/defaults'
import { asRecord, type Json } from '../apimachinery/json-value'
import { defaultPodSpecFields } from './pod-spec-defaults'
import { defaultFlowcontrolObject } from './flowcontrol/defaults'
import { isFlowcontrol } from './flowcontrol/names'
import { fillStatusZeroFields } from './status-zero-fields'

/** The pod's quality-of-service class, computed on create as kube-apiserver does. */
export function podQosClass(pod: KubeObject): string {
  const spec = asRecord(pod.spec)
  const containers = [...((spec.containers as Json[]) ?? []), ...((spec.initContainers as Json[]) ?? [])]
  let any = false
  let guaranteed = true
  for (const c of containers) {
    const resources = asRecord(c.resources)
    const requests = asRecord(resources.requests)
    const limits = asRecord(resources.limits)
    if (Object.keys(requests).length || Object.keys(limits).length) any = true
    for (const r of ['cpu', 'memory']) {
      if (limits[r] === undefined) guaranteed = false
      else if (requests[r] !== undefined && String(requests[r]) !== String(limits[r])) guaranteed = false
    }
  }
  if (!any) return 'BestEffort'
  return guaranteed ? 'Guaranteed' : 'Burstable'
}

/** The status a new object starts with: kinds with a status subresource ignore a status sent on create. */
export function initialStatus(def: ResourceDef, obj: KubeObject): unknown {
  if (!def.subresources.includes('status')) return obj.status
  // A custom resource's status is written through its status subresource only.
  if (def.custom) return undefined
  if (def.group === '' && def.kind === 'Node') return obj.status
  if (def.group === '' && def.kind === 'Pod') return { phase: 'Pending', qosClass: podQosClass(obj) }
  if (def.group === '' && def.kind === 'Namespace') return { phase: 'Active' }
  const storage = initialStorageStatus(def.group, def.kind)
  if (storage) return storage
  // The zero counts every status carries are added by fillStatusZeroFields.
  return {}
}

/**
 * Field defaults applied on create and update, as upstream's defaulting for the fields we act on,
 * and the zero-valued fields upstream's Go types always write.
 */
export function applyDefaults(def: ResourceDef, obj: KubeObject): void {
  fillStatusZeroFields(def, obj)
  for (const podSpec of podSpecsOf(def, obj)) defaultPodSpec(podSpec)
  if (def.group === rbacGroup) defaultRbacObject(def.kind, obj)
  defaultStorageObject(def.group, def.kind, obj)
  if (def.group === admissionGroup) (isAdmissionPolicyKind(def.kind) ? defaultAdmissionPolicyObject : defaultWebhookConfiguration)(def.kind, obj)
  if (def.group === '' && def.kind === 'Service') defaultService(obj)
  if (def.group === 'networking.k8s.io' && def.kind === 'NetworkPolicy') defaultNetworkPolicy(obj)
  if (def.group === '' && def.kind === 'LimitRange') defaultLimitRange(obj)
  if (def.group === 'autoscaling' && def.kind === 'HorizontalPodAutoscaler') defaultHorizontalPodAutoscaler(obj)
  if (def.group === 'batch' && def.kind === 'Job') {
    defaultJobSelector(obj)
    defaultJobSpec(asRecord(obj.spec))
  }
  if (def.group === 'batch' && def.kind === 'CronJob') defaultCronJobSpec(asRecord(obj.spec))
  if (def.group === 'apps' && def.kind === 'StatefulSet') defaultStatefulSetSpec(asRecord(obj.spec))
  if (def.group === 'apps' && def.kind === 'DaemonSet') defaultDaemonSetSpec(asRecord(obj.spec))
  if (def.group === '' && def.kind === 'Secret') {
    mergeStringData(obj)
    obj.type ??= 'Opaque'
  }
  if (def.group === 'scheduling.k8s.io' && def.kind === 'PriorityClass') defaultPriorityClass(obj)
  if (def.group === apiregistrationGroup && def.kind === 'APIService') defaultApiService(obj)
  if (def.group === '' && def.kind === 'ReplicationController') defaultReplicationController(obj)
  if (isFlowcontrol(def)) defaultFlowcontrolObject(def.kind, obj)
  if (def.group === 'apps' && (def.kind === 'Deployment' || def.kind === 'ReplicaSet' || def.kind === 'StatefulSet')) {
    const spec = asRecord(obj.spec)
    if (spec.replicas === undefined || spec.replicas === null) obj.spec = { ...spec, replicas: 1 }
  }
  if (def.group === 'apps' && def.kind === 'Deployment') {
    const spec = asRecord(obj.spec)
    const strategy = asRecord(spec.strategy)
    if (!strategy.type) strategy.type = 'RollingUpdate'
    if (strategy.type === 'RollingUpdate') {
      const ru = asRecord(strategy.rollingUpdate)
      strategy.rollingUpdate = { maxUnavailable: ru.maxUnavailable ?? '25%', maxSurge: ru.maxSurge ?? '25%' }
    }
    spec.strategy = strategy
    spec.revisionHistoryLimit ??= 10
    spec.progressDeadlineSeconds ??= 600
  }
}

/** PodSpec defaults users see in `-o yaml` and controllers rely on. */
export function defaultPodSpec(spec: Json): void {
  spec.restartPolicy ??= 'Always'
  spec.terminationGracePeriodSeconds ??= 30
  spec.dnsPolicy ??= 'ClusterFirst'
  spec.schedulerName ??= 'default-scheduler'
  for (const list of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of (spec[list] as Json[] | undefined) ?? []) {
      if (!c || typeof c !== 'object') continue
      c.terminationMessagePath ??= '/dev/termination-log'
      c.terminationMessagePolicy ??= 'File'
      if (c.imagePullPolicy === undefined && typeof c.image === 'string') c.imagePullPolicy = /:latest$|^[^:@]*$/.test(c.image.split('/').pop() ?? '') ? 'Always' : 'IfNotPresent'
      for (const p of (c.ports as Json[] | undefined) ?? []) if (p && typeof p === 'object') p.protocol ??= 'TCP'
    }
  }
  defaultPodSpecFields(spec)
}

/** Where each kind keeps its pod template's spec. */
export function podSpecsOf(def: ResourceDef, obj: KubeObject): Json[] {
  const spec = asRecord(obj.spec)
  if (def.group === '' && def.kind === 'Pod') return obj.spec ? [spec] : []
  if (def.group === '' && def.kind === 'ReplicationController') return spec.template ? [asRecord(asRecord(spec.template).spec)] : []
  if (def.group === '' && def.kind === 'PodTemplate') return obj.template ? [asRecord(asRecord(obj.template).spec)] : []
  if (def.group === 'apps' && def.kind !== 'ControllerRevision') return spec.template ? [asRecord(asRecord(spec.template).spec)] : []
  if (def.group === 'batch' && def.kind === 'Job') return spec.template ? [asRecord(asRecord(spec.template).spec)] : []
  if (def.group === 'batch' && def.kind === 'CronJob') {
    const jobSpec = asRecord(asRecord(spec.jobTemplate).spec)
    return jobSpec.template ? [asRecord(asRecord(jobSpec.template).spec)] : []
  }
  return []
}

export function defaultService(obj: KubeObject): void {
  const spec = asRecord(obj.spec)
  if (!obj.spec) return
  spec.type ??= 'ClusterIP'
  spec.sessionAffinity ??= 'None'
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') spec.externalTrafficPolicy ||= 'Cluster'
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') spec.internalTrafficPolicy ??= 'Cluster'
  for (const p of (spec.ports as Json[] | undefined) ?? []) {
    if (!p || typeof p !== 'object') continue
    p.protocol ??= 'TCP'
    p.targetPort ??= p.port
  }
}

/**
 * As the Job strategy on create: unless `manualSelector` is set, the Job selects its pods by its
 * own uid, and the template carries the matching labels.
 */
export function defaultJobSelector(obj: KubeObject): void {
  const spec = asRecord(obj.spec)
  const uid = obj.metadata.uid
  if (!obj.spec || spec.manualSelector === true || spec.selector || !uid) return
  const template = asRecord(spec.template)
  const meta = asRecord(template.metadata)
  const name = obj.metadata.name ?? ''
  meta.labels = {
    ...asRecord(meta.labels),
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  }
  template.metadata = meta
  spec.template = template
  spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } }
}

/** The DefaultTolerationSeconds admission plugin's tolerations, with kube-apiserver's 300 s defaults. */
const defaultTolerations = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'].map((key) => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
}))

/** Create-time admission defaults: a new pod tolerates unready and unreachable nodes for 5 minutes. */
export function admitNewPod(obj: KubeObject): void {
  const spec = asRecord(obj.spec)
  if (!obj.spec) return
  const tolerations = Array.isArray(spec.tolerations) ? (spec.tolerations as Json[]) : []
  const covers = (key: string) =>
    tolerations.some((t) => (t.operator === 'Exists' && !t.key) || (t.key === key && (!t.effect || t.effect === 'NoExecute')))
  const added = defaultTolerations.filter((t) => !covers(t.key))
  if (added.length) spec.tolerations = [...tolerations, ...added]
}

/** A new namespace carries the `kubernetes` finalizer: the namespace controller empties it before it goes. */
export function admitNewNamespace(obj: KubeObject): void {
  const spec = asRecord(obj.spec)
  const finalizers = Array.isArray(spec.finalizers) ? (spec.finalizers as string[]) : []
  if (!finalizers.includes('kubernetes')) finalizers.push('kubernetes')
  obj.spec = { ...spec, finalizers }
}

/** Finalizers that hold a deletion: metadata.finalizers, and for a Namespace its spec.finalizers. */
export function pendingFinalizers(def: ResourceDef, obj: KubeObject): string[] {
  const meta = obj.metadata.finalizers ?? []
  if (def.group !== '' || def.kind !== 'Namespace') return meta
  return [...meta, ...((asRecord(obj.spec).finalizers as string[] | undefined) ?? [])]
}

/** As the Secret conversion upstream: `stringData` is a write-only convenience merged into `data`. */
export function mergeStringData(obj: KubeObject): void {
  const stringData = asRecord(obj.stringData)
  if (obj.stringData === undefined) return
  const data = { ...asRecord(obj.data) }
  for (const [k, v] of Object.entries(stringData)) {
    const bytes = new TextEncoder().encode(String(v))
    data[k] = btoa(String.fromCharCode(...bytes))
  }
  obj.data = data
  delete obj.stringData
}

/** apps/v1 StatefulSet defaults, as upstream's SetDefaults_StatefulSet. */
export function defaultStatefulSetSpec(spec: Json): void {
  // serviceName has no omitempty: upstream writes "" when it is unset.
  spec.serviceName ??= ''
  spec.podManagementPolicy ??= 'OrderedReady'
  const strategy = asRecord(spec.updateStrategy)
  strategy.type ??= 'RollingUpdate'
  if (strategy.type === 'RollingUpdate') strategy.rollingUpdate = { partition: 0, ...asRecord(strategy.rollingUpdate) }
  spec.updateStrategy = strategy
  spec.revisionHistoryLimit ??= 10
  spec.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Retain', whenScaled: 'Retain', ...asRecord(spec.persistentVolumeClaimRetentionPolicy) }
}

/** apps/v1 DaemonSet defaults, as upstream's SetDefaults_DaemonSet. */
export function defaultDaemonSetSpec(spec: Json): void {
  const strategy = asRecord(spec.updateStrategy)
  strategy.type ??= 'RollingUpdate'
  if (strategy.type === 'RollingUpdate') strategy.rollingUpdate = { maxUnavailable: 1, maxSurge: 0, ...asRecord(strategy.rollingUpdate) }
  spec.updateStrategy = strategy
  spec.revisionHistoryLimit ??= 10
}

/** batch/v1 Job defaults, as upstream's SetDefaults_Job. */
export function defaultJobSpec(spec: Json): void {
  // A Job with neither completions nor parallelism runs one pod to completion; with parallelism
  // alone it is a work queue and completions stays unset.
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1
  spec.parallelism ??= 1
  spec.backoffLimit ??= 6
  spec.completionMode ??= 'NonIndexed'
  spec.suspend ??= false
  spec.podReplacementPolicy ??= 'TerminatingOrFailed'
}

/** batch/v1 CronJob defaults, as upstream's SetDefaults_CronJob. */
export function defaultCronJobSpec(spec: Json): void {
  spec.concurrencyPolicy ??= 'Allow'
  spec.suspend ??= false
  spec.successfulJobsHistoryLimit ??= 3
  spec.failedJobsHistoryLimit ??= 1
}
