import { applyMergePatch } from '../../apimachinery/patch'
import type { KubeObject } from '../../apimachinery/types'
import type { Taint, Toleration } from '../node-lifecycle/taints'
import type { Action, Cache, ResourceRef } from '../runtime/types'
import { leases, nodes, pods } from '../resources'
import type { Json } from '../../apimachinery/json-value'

/**
 * Fixture builders and an in-memory Cache for the scheduler and node lifecycle unit tests. The
 * cache can apply actions the way the runner does (each action's result is visible before the next
 * reconcile), which is what lets a test drive several passes without an API server.
 */

export interface NodeFixture {
  /** Ready condition status; true → 'True', false → 'False', a string is used as is, null omits it */
  ready?: boolean | 'Unknown' | null
  heartbeat?: string
  taints?: Taint[]
  allocatable?: Record<string, string>
  labels?: Record<string, string>
  unschedulable?: boolean
  conditions?: Json[]
  creationTimestamp?: string
}

export function newNode(name: string, f: NodeFixture = {}): KubeObject {
  const conditions: Json[] = [...(f.conditions ?? [])]
  if (f.ready !== null) {
    const status = f.ready === undefined || f.ready === true ? 'True' : f.ready === false ? 'False' : f.ready
    conditions.unshift({ type: 'Ready', status, reason: 'KubeletReady', lastHeartbeatTime: f.heartbeat ?? '2025-01-01T00:00:00Z', lastTransitionTime: '2025-01-01T00:00:00Z' })
  }
  const spec: Json = {}
  if (f.taints) spec.taints = f.taints
  if (f.unschedulable) spec.unschedulable = true
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `uid-${name}`, resourceVersion: '1', labels: { 'kubernetes.io/hostname': name, ...f.labels }, creationTimestamp: f.creationTimestamp ?? '2025-01-01T00:00:00Z' },
    spec,
    status: { allocatable: f.allocatable ?? { cpu: '4', memory: '8Gi', pods: '110' }, conditions },
  }
}

export interface PodFixture {
  namespace?: string
  nodeName?: string
  /** requests of a single container */
  requests?: Record<string, string>
  limits?: Record<string, string>
  tolerations?: Toleration[]
  /** uid of the controlling owner */
  owner?: string
  phase?: string
  labels?: Record<string, string>
  schedulerName?: string
  spec?: Json
  conditions?: Json[]
  deletionTimestamp?: string
  creationTimestamp?: string
}

export function newPod(name: string, f: PodFixture = {}): KubeObject {
  const resources: Json = {}
  if (f.requests) resources.requests = f.requests
  if (f.limits) resources.limits = f.limits
  const spec: Json = { containers: [{ name: 'app', image: 'nginx', resources }], schedulerName: f.schedulerName ?? 'default-scheduler', ...f.spec }
  if (f.nodeName) spec.nodeName = f.nodeName
  if (f.tolerations) spec.tolerations = f.tolerations
  const metadata: KubeObject['metadata'] = {
    name,
    namespace: f.namespace ?? 'default',
    uid: `uid-${name}`,
    resourceVersion: '1',
    creationTimestamp: f.creationTimestamp ?? '2025-01-01T00:00:00Z',
    labels: f.labels,
  }
  if (f.owner) metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs-${f.owner}`, uid: f.owner, controller: true }]
  if (f.deletionTimestamp) metadata.deletionTimestamp = f.deletionTimestamp
  const status: Json = { phase: f.phase ?? (f.nodeName ? 'Running' : 'Pending') }
  if (f.conditions) status.conditions = f.conditions
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec, status }
}

export function newLease(nodeName: string, renewTime: string): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: nodeName, namespace: 'kube-node-lease', uid: `uid-lease-${nodeName}`, resourceVersion: '1' },
    spec: { holderIdentity: nodeName, leaseDurationSeconds: 40, renewTime },
  }
}

const refsByKind: Record<string, ResourceRef> = { Pod: pods, Node: nodes, Lease: leases }

const keyOf = (r: ResourceRef) => `${r.group}/${r.version}/${r.plural}`


export interface RecordedEvent {
  involved: string
  eventType: string
  reason: string
  message: string
}

/** A Cache over plain maps that applies actions like the runner: the result is stored before the next reconcile. */
export class MemoryCache implements Cache {
  private readonly byResource = new Map<string, Map<string, KubeObject>>()
  private revision = 100
  readonly events: RecordedEvent[] = []

  constructor(...objects: KubeObject[]) {
    for (const o of objects) this.add(o)
  }

  private bucket(resource: ResourceRef): Map<string, KubeObject> {
    let m = this.byResource.get(keyOf(resource))
    if (!m) this.byResource.set(keyOf(resource), (m = new Map()))
    return m
  }

  /** Stores an object under the resource its kind implies (Pod, Node or Lease). */
  add(object: KubeObject): this {
    const ref = refsByKind[object.kind ?? '']
    if (!ref) throw new Error(`no resource for kind ${object.kind}`)
    return this.put(ref, object)
  }

  put(resource: ResourceRef, object: KubeObject): this {
    this.bucket(resource).set(`${object.metadata.namespace ?? ''}/${object.metadata.name}`, object)
    return this
  }

  remove(resource: ResourceRef, namespace: string | undefined, name: string): void {
    this.bucket(resource).delete(`${namespace ?? ''}/${name}`)
  }

  get(resource: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.bucket(resource).get(`${namespace ?? ''}/${name}`)
  }

  list(resource: ResourceRef, namespace?: string): KubeObject[] {
    const all = [...this.bucket(resource).values()]
    return namespace === undefined ? all : all.filter((o) => o.metadata.namespace === namespace)
  }

  private store(resource: ResourceRef, object: KubeObject): void {
    const copy = structuredClone(object)
    copy.metadata.resourceVersion = String(++this.revision)
    this.put(resource, copy)
  }

  /** Applies one action as the API server would, rejecting stale updates and unmet preconditions. */
  apply(action: Action): void {
    switch (action.type) {
      case 'bind': {
        const pod = this.get(pods, action.namespace, action.name)
        if (!pod || pod.metadata.uid !== action.uid) throw new Error(`bind: pod ${action.namespace}/${action.name} not found`)
        if ((pod.spec as Json).nodeName) throw new Error(`bind: pod ${action.name} is already bound`)
        this.store(pods, { ...pod, spec: { ...(pod.spec as Json), nodeName: action.nodeName } })
        return
      }
      case 'create':
        this.store(action.resource, action.object)
        return
      case 'update':
      case 'updateStatus': {
        const { namespace, name = '', resourceVersion } = action.object.metadata
        const current = this.get(action.resource, namespace, name)
        if (!current) throw new Error(`${action.type}: ${name} not found`)
        if (resourceVersion !== current.metadata.resourceVersion) throw new Error(`${action.type}: ${name} conflict`)
        const next = action.type === 'update' ? { ...action.object, status: current.status } : { ...current, status: action.object.status }
        this.store(action.resource, next)
        return
      }
      case 'patch': {
        const current = this.get(action.resource, action.namespace, action.name)
        if (!current) throw new Error(`patch: ${action.name} not found`)
        const patch = action.subresource === 'status' ? { status: (action.patch as Json).status } : action.patch
        this.store(action.resource, applyMergePatch(current, patch) as KubeObject)
        return
      }
      case 'delete': {
        const current = this.get(action.resource, action.namespace, action.name)
        if (!current) throw new Error(`delete: ${action.name} not found`)
        if (action.preconditions?.uid && action.preconditions.uid !== current.metadata.uid) throw new Error(`delete: ${action.name} uid mismatch`)
        this.remove(action.resource, action.namespace, action.name)
        return
      }
      case 'event':
        this.events.push({ involved: `${action.involved.metadata.namespace ?? ''}/${action.involved.metadata.name}`, eventType: action.eventType, reason: action.reason, message: action.message })
        return
      default:
        throw new Error(`unsupported action ${action.type}`)
    }
  }

  applyAll(actions: readonly Action[]): void {
    for (const a of actions) this.apply(a)
  }
}
