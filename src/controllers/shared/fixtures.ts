import type { KubeObject } from '../../apimachinery/types'
import { pods, sameResource } from '../resources'
import type { Action, Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { isRecord, sameJson, type Json } from './json'
import { newControllerRef } from './owner-refs'
import { deployments, replicaSets } from './resources'
import { timestamp } from './time'

/**
 * Fixture builders and an in-memory Cache for the ReplicaSet and Deployment unit tests. The cache
 * applies actions as the stores would (names from generateName, uids, generations, status kept
 * apart from spec, preconditions) so that tests can drive several passes of both controllers.
 */

export const T0 = Date.parse('2025-06-01T12:00:00Z')

const stamp = (t: number | string | undefined) => (typeof t === 'number' ? timestamp(t) : (t ?? timestamp(T0 - 3600_000)))

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
  if (f.readySince !== undefined) status.conditions = [{ type: 'Ready', status: 'True', lastTransitionTime: timestamp(f.readySince) }]
  else if (f.notReady) status.conditions = [{ type: 'Ready', status: 'False', lastTransitionTime: timestamp(T0 - 60_000) }]
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
    creationTimestamp: timestamp(T0 - 3600_000),
  }
  if (f.annotations) metadata.annotations = f.annotations
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata, spec, status: f.status ?? {} }
}

const refsByKind: Record<string, ResourceRef> = { Pod: pods, ReplicaSet: replicaSets, Deployment: deployments }
const withGeneration = new Set(['ReplicaSet', 'Deployment'])
const keyOf = (r: ResourceRef) => `${r.group}/${r.version}/${r.plural}`
const suffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789'

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch
  const out: Json = isRecord(target) ? { ...target } : {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else out[k] = mergePatch(out[k], v)
  }
  return out
}

export interface RecordedEvent {
  involved: string
  kind?: string
  eventType: string
  reason: string
  message: string
}

export interface ApplyResult {
  applied: number
  error?: Error
}

/** A Cache over plain maps that applies actions as the stores would; each result is visible at once. */
export class MemoryCache implements Cache {
  private readonly byResource = new Map<string, Map<string, KubeObject>>()
  private revision = 100
  private generated = 0
  /** the store's clock: creation and deletion timestamps */
  now = T0
  /** when set, bound pods are deleted gracefully (they get a deletionTimestamp and stay until finished) */
  gracefulPodDeletion = false
  /** when set, only this many more pod creates succeed (a quota) */
  podCreateQuota: number | undefined
  readonly events: RecordedEvent[] = []

  constructor(...objects: KubeObject[]) {
    for (const o of objects) this.add(o)
  }

  private bucket(resource: ResourceRef): Map<string, KubeObject> {
    let m = this.byResource.get(keyOf(resource))
    if (!m) this.byResource.set(keyOf(resource), (m = new Map()))
    return m
  }

  /** Stores objects under the resource their kind implies. */
  add(...objects: KubeObject[]): this {
    for (const o of objects) {
      const ref = refsByKind[o.kind ?? '']
      if (!ref) throw new Error(`no resource for kind ${o.kind}`)
      this.bucket(ref).set(`${o.metadata.namespace ?? ''}/${o.metadata.name}`, o)
    }
    return this
  }

  get(resource: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.bucket(resource).get(`${namespace ?? ''}/${name}`)
  }

  list(resource: ResourceRef, namespace?: string): KubeObject[] {
    const all = [...this.bucket(resource).values()]
    return namespace === undefined ? all : all.filter((o) => o.metadata.namespace === namespace)
  }

  /** Writes an object as another component would (a kubelet, a user): a new resourceVersion, generation bumped on a spec change. */
  write(resource: ResourceRef, object: KubeObject): KubeObject {
    const current = this.get(resource, object.metadata.namespace, object.metadata.name ?? '')
    const next = structuredClone(object)
    if (current && withGeneration.has(next.kind ?? '') && !sameJson(current.spec, next.spec)) next.metadata.generation = (current.metadata.generation ?? 0) + 1
    next.metadata.resourceVersion = String(++this.revision)
    this.bucket(resource).set(`${next.metadata.namespace ?? ''}/${next.metadata.name}`, next)
    return next
  }

  remove(resource: ResourceRef, namespace: string | undefined, name: string): void {
    this.bucket(resource).delete(`${namespace ?? ''}/${name}`)
  }

  private current(resource: ResourceRef, namespace: string | undefined, name: string, verb: string): KubeObject {
    const o = this.get(resource, namespace, name)
    if (!o) throw new Error(`${verb}: ${resource.plural} ${namespace}/${name} not found`)
    return o
  }

  /** Applies one action; throws as the runner's write would fail (the runner then stops the pass for that key). */
  apply(action: Action): void {
    switch (action.type) {
      case 'create': {
        const o = structuredClone(action.object)
        if (!o.metadata.name && o.metadata.generateName) {
          const n = this.generated++
          const suffix = Array.from({ length: 5 }, (_, i) => suffixAlphabet[Math.floor(n / suffixAlphabet.length ** i) % suffixAlphabet.length]).join('')
          o.metadata.name = `${o.metadata.generateName}${suffix}`
        }
        const name = o.metadata.name ?? ''
        if (this.get(action.resource, o.metadata.namespace, name)) throw new Error(`create: ${action.resource.plural} ${name} already exists`)
        if (sameResource(action.resource, pods)) {
          if (this.podCreateQuota !== undefined) {
            if (this.podCreateQuota <= 0) throw new Error('create: exceeded quota')
            this.podCreateQuota--
          }
          o.status = { phase: 'Pending' }
        } else {
          o.status = {}
        }
        o.metadata.uid = `uid-${name}`
        o.metadata.creationTimestamp = timestamp(this.now)
        if (withGeneration.has(o.kind ?? '')) o.metadata.generation = 1
        this.write(action.resource, o)
        return
      }
      case 'update':
      case 'updateStatus': {
        const { namespace, name = '', resourceVersion } = action.object.metadata
        const current = this.current(action.resource, namespace, name, action.type)
        if (resourceVersion && resourceVersion !== current.metadata.resourceVersion) throw new Error(`${action.type}: ${name} conflict`)
        if (action.type === 'updateStatus') {
          if (!sameJson(current.status, action.object.status)) this.write(action.resource, { ...current, status: structuredClone(action.object.status) })
          return
        }
        const { generation: _g, uid: _u, creationTimestamp: _c, ...meta } = action.object.metadata
        this.write(action.resource, { ...action.object, metadata: { ...current.metadata, ...meta }, status: current.status })
        return
      }
      case 'patch': {
        const current = this.current(action.resource, action.namespace, action.name, 'patch')
        const patch = (action.subresource === 'status' ? { status: (action.patch as Json).status } : action.patch) as Json
        const rv = isRecord(patch.metadata) ? patch.metadata.resourceVersion : undefined
        if (rv && rv !== current.metadata.resourceVersion) throw new Error(`patch: ${action.name} conflict`)
        const next = mergePatch(current, patch) as KubeObject
        next.metadata.uid = current.metadata.uid
        this.write(action.resource, next)
        return
      }
      case 'delete': {
        const current = this.current(action.resource, action.namespace, action.name, 'delete')
        if (action.preconditions?.uid && action.preconditions.uid !== current.metadata.uid) throw new Error(`delete: ${action.name} uid mismatch`)
        const bound = !!(current.spec as Json | undefined)?.nodeName
        if (this.gracefulPodDeletion && current.kind === 'Pod' && bound) {
          if (!current.metadata.deletionTimestamp) this.write(action.resource, { ...current, metadata: { ...current.metadata, deletionTimestamp: timestamp(this.now + 30_000) } })
          return
        }
        this.remove(action.resource, action.namespace, action.name)
        return
      }
      case 'event': {
        const o = action.involved
        this.events.push({ involved: `${o.metadata.namespace ?? ''}/${o.metadata.name}`, kind: o.kind, eventType: action.eventType, reason: action.reason, message: action.message })
        return
      }
      default:
        throw new Error(`unsupported action ${action.type}`)
    }
  }

  /** Applies actions in order, stopping at the first failure, as the runner does. */
  applyAll(actions: readonly Action[]): ApplyResult {
    let applied = 0
    for (const a of actions) {
      try {
        this.apply(a)
      } catch (e) {
        return { applied, error: e as Error }
      }
      applied++
    }
    return { applied }
  }
}

/** One runner pass over every key of a controller: reconcile, then apply its actions. Returns the number of actions applied. */
export function runPass(def: ControllerDefinition, cache: MemoryCache, now: number): { actions: number; requeueAfterMs?: number } {
  let actions = 0
  let requeueAfterMs: number | undefined
  for (const key of def.allKeys(cache)) {
    const out = def.reconcile(key, cache, now)
    actions += cache.applyAll(out.actions).applied
    if (out.requeueAfterMs !== undefined) requeueAfterMs = Math.min(requeueAfterMs ?? Infinity, out.requeueAfterMs)
  }
  return requeueAfterMs === undefined ? { actions } : { actions, requeueAfterMs }
}

/** What a kubelet reports for a running pod: bound, Running, Ready since `now`. */
export function markPodReady(cache: MemoryCache, pod: KubeObject, now: number): KubeObject {
  const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: timestamp(now) }] }
  return cache.write(pods, { ...pod, spec: { ...(pod.spec as Json), nodeName: (pod.spec as Json)?.nodeName ?? 'node-1' }, status })
}

/** Marks every pending pod ready (the limit caps how many, oldest first). */
export function markPendingPodsReady(cache: MemoryCache, now: number, limit = Infinity): number {
  const pending = cache
    .list(pods)
    .filter((p) => !p.metadata.deletionTimestamp && (p.status as Json | undefined)?.phase === 'Pending')
    .sort((a, b) => ((a.metadata.creationTimestamp ?? '') < (b.metadata.creationTimestamp ?? '') ? -1 : 1))
    .slice(0, limit)
  for (const p of pending) markPodReady(cache, p, now)
  return pending.length
}

/** Finishes graceful deletions, as kubelets do once containers stop. */
export function finishTerminatingPods(cache: MemoryCache): number {
  const terminating = cache.list(pods).filter((p) => p.metadata.deletionTimestamp)
  for (const p of terminating) cache.remove(pods, p.metadata.namespace, p.metadata.name ?? '')
  return terminating.length
}
