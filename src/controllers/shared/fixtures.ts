import type { KubeObject } from '../../apimachinery/types'
import { MemoryCache, T0 } from './memory-cache'
import { newControllerRef } from './owner-refs'
import { deployments } from './resources'
import type { Json } from '../../apimachinery/json-value'
import { formatTime } from '../../apimachinery/meta-time'

export * from './memory-cache'

/** Fixture builders for the ReplicaSet and Deployment unit tests (the in-memory cache is re-exported). */

const stamp = (t: number | string | undefined) => (typeof t === 'number' ? formatTime(t) : (t ?? formatTime(T0 - 3600_000)))

export interface PodFixture {
  namespace?: string
  labels?: Record<string, string>
  /** the controlling ReplicaSet */
  owner?: KubeObject
  phase?: string
  nodeName?: string
  /** Ready=True since this time (epoch ms), or Ready=False */
  readySince?: number
  notReady?: boolean
  restarts?: number
  creationTimestamp?: number | string
  deletionTimestamp?: string
  annotations?: Record<string, string>
}

function templateLabelsOf(owner: KubeObject | undefined): Record<string, string> | undefined {
  const labels = ((owner?.spec as Json | undefined)?.template as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels
  return labels ? { ...labels } : undefined
}

/** A pod; with an owner it carries the owner's template labels and controller reference. */
export function newPod(name: string, f: PodFixture = {}): KubeObject {
  const metadata: KubeObject['metadata'] = {
    name,
    namespace: f.namespace ?? 'default',
    uid: `uid-${name}`,
    resourceVersion: '1',
    creationTimestamp: stamp(f.creationTimestamp),
    labels: f.labels ?? templateLabelsOf(f.owner) ?? { app: 'web' },
  }
  if (f.annotations) metadata.annotations = f.annotations
  if (f.owner) metadata.ownerReferences = [newControllerRef(f.owner, 'apps/v1', 'ReplicaSet')]
  if (f.deletionTimestamp) metadata.deletionTimestamp = f.deletionTimestamp
  const nodeName = f.nodeName ?? (f.readySince !== undefined || f.phase === 'Running' ? 'node-1' : undefined)
  const spec: Json = { containers: [{ name: 'app', image: 'nginx:1' }] }
  if (nodeName) spec.nodeName = nodeName
  const status: Json = { phase: f.phase ?? (f.readySince !== undefined ? 'Running' : 'Pending') }
  if (f.readySince !== undefined) status.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: formatTime(f.readySince) }]
  else if (f.notReady) status.conditions = [{ type: 'Ready', status: 'False', lastTransitionTime: formatTime(T0 - 60_000) }]
  if (f.restarts !== undefined) status.containerStatuses = [{ name: 'app', restartCount: f.restarts, ready: f.readySince !== undefined }]
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec, status }
}

export interface ReplicaSetFixture {
  namespace?: string
  replicas?: number
  /** selector matchLabels, also the template's labels unless templateLabels is given */
  selector?: Record<string, string>
  templateLabels?: Record<string, string>
  /** the controlling Deployment */
  owner?: KubeObject
  image?: string
  annotations?: Record<string, string>
  minReadySeconds?: number
  generation?: number
  status?: Json
  creationTimestamp?: number | string
  deletionTimestamp?: string
}

export function newReplicaSet(name: string, f: ReplicaSetFixture = {}): KubeObject {
  const selector = f.selector ?? { app: 'web' }
  const metadata: KubeObject['metadata'] = {
    name,
    namespace: f.namespace ?? 'default',
    uid: `uid-${name}`,
    resourceVersion: '1',
    generation: f.generation ?? 1,
    creationTimestamp: stamp(f.creationTimestamp),
    labels: { ...selector },
  }
  if (f.annotations) metadata.annotations = f.annotations
  if (f.owner) metadata.ownerReferences = [newControllerRef(f.owner, 'apps/v1', 'Deployment')]
  if (f.deletionTimestamp) metadata.deletionTimestamp = f.deletionTimestamp
  const spec: Json = {
    replicas: f.replicas ?? 1,
    selector: { matchLabels: selector },
    template: { metadata: { labels: f.templateLabels ?? { ...selector } }, spec: { containers: [{ name: 'app', image: f.image ?? 'nginx:1' }] } },
  }
  if (f.minReadySeconds) spec.minReadySeconds = f.minReadySeconds
  return { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata, spec, status: f.status ?? { replicas: 0 } }
}

export interface DeploymentFixture {
  namespace?: string
  replicas?: number
  labels?: Record<string, string>
  image?: string
  strategy?: 'RollingUpdate' | 'Recreate'
  maxSurge?: number | string
  maxUnavailable?: number | string
  paused?: boolean
  minReadySeconds?: number
  revisionHistoryLimit?: number
  /** null leaves the deadline unset */
  progressDeadlineSeconds?: number | null
  generation?: number
  annotations?: Record<string, string>
  status?: Json
}

/** A Deployment as the store holds it after defaulting (strategy, history limit and deadline filled in). */
export function newDeployment(name: string, f: DeploymentFixture = {}): KubeObject {
  const labels = f.labels ?? { app: 'web' }
  const strategy: Json = { type: f.strategy ?? 'RollingUpdate' }
  if (strategy.type === 'RollingUpdate') strategy.rollingUpdate = { maxSurge: f.maxSurge ?? '25%', maxUnavailable: f.maxUnavailable ?? '25%' }
  const spec: Json = {
    replicas: f.replicas ?? 3,
    selector: { matchLabels: { ...labels } },
    template: { metadata: { labels: { ...labels } }, spec: { containers: [{ name: 'app', image: f.image ?? 'nginx:1' }] } },
    strategy,
    revisionHistoryLimit: f.revisionHistoryLimit ?? 10,
  }
  if (f.progressDeadlineSeconds !== null) spec.progressDeadlineSeconds = f.progressDeadlineSeconds ?? 600
  if (f.paused) spec.paused = true
  if (f.minReadySeconds) spec.minReadySeconds = f.minReadySeconds
  const metadata: KubeObject['metadata'] = {
    name,
    namespace: f.namespace ?? 'default',
    uid: `uid-${name}`,
    resourceVersion: '1',
    generation: f.generation ?? 1,
    creationTimestamp: formatTime(T0 - 3600_000),
  }
  if (f.annotations) metadata.annotations = f.annotations
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata, spec, status: f.status ?? {} }
}

/** Changes a Deployment's spec as a user would (the generation goes up). */
export function editDeployment(cache: MemoryCache, name: string, edit: (spec: Json) => void, namespace = 'default'): KubeObject {
  const d = structuredClone(cache.get(deployments, namespace, name)!)
  edit(d.spec as Json)
  return cache.write(deployments, d)
}

/** Sets the image of the Deployment's only container (`kubectl set image`). */
export function setImage(cache: MemoryCache, name: string, image: string): KubeObject {
  return editDeployment(cache, name, (spec) => {
    const t = spec.template as { spec: { containers: Json[] } }
    t.spec.containers = [{ ...t.spec.containers[0], image }]
  })
}

/** What `kubectl rollout status` prints for the Deployment as stored (polymorphichelpers' DeploymentStatusViewer). */
export function rolloutStatusMessage(d: KubeObject): string {
  const name = d.metadata.name
  const spec = d.spec as { replicas?: number }
  const s = (d.status ?? {}) as { observedGeneration?: number; replicas?: number; updatedReplicas?: number; availableReplicas?: number; conditions?: { type: string; reason?: string }[] }
  const [replicas, updated, available, want] = [s.replicas ?? 0, s.updatedReplicas ?? 0, s.availableReplicas ?? 0, spec.replicas ?? 1]
  if ((d.metadata.generation ?? 0) > (s.observedGeneration ?? 0)) return 'Waiting for deployment spec update to be observed...'
  if (s.conditions?.some((c) => c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded')) return `deployment "${name}" exceeded its progress deadline`
  if (updated < want) return `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${want} new replicas have been updated...`
  if (replicas > updated) return `Waiting for deployment "${name}" rollout to finish: ${replicas - updated} old replicas are pending termination...`
  if (available < updated) return `Waiting for deployment "${name}" rollout to finish: ${available} of ${updated} updated replicas are available...`
  return `deployment "${name}" successfully rolled out`
}
