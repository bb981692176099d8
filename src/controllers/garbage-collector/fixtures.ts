import { applyMergePatch } from '../../apimachinery/patch'
import type { KubeObject, OwnerReference } from '../../apimachinery/types'
import { apiVersionOf, builtinResources, findResource, type ResourceDef } from '../../apis/registry'
import type { Action, Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { asRecord, type Json } from '../../apimachinery/json-value'
import { formatTime } from '../../apimachinery/meta-time'

/**
 * Fixtures for the garbage collector, namespace and pod GC unit tests: object builders and an
 * in-memory store that applies actions with the deletion rules of the kind store (finalizers and
 * propagation policies, graceful pod deletion, namespace spec.finalizers), so a test can drive
 * several passes and watch objects go in the order an API server would remove them.
 */

const refOf = (group: string, plural: string): ResourceRef => {
  const def = builtinResources.find((d) => d.group === group && d.plural === plural)
  if (!def) throw new Error(`unknown resource ${group}/${plural}`)
  return { group: def.group, version: def.version, plural: def.plural }
}

export const res = {
  pods: refOf('', 'pods'),
  nodes: refOf('', 'nodes'),
  namespaces: refOf('', 'namespaces'),
  configmaps: refOf('', 'configmaps'),
  secrets: refOf('', 'secrets'),
  services: refOf('', 'services'),
  events: refOf('', 'events'),
  endpointslices: refOf('discovery.k8s.io', 'endpointslices'),
  replicasets: refOf('apps', 'replicasets'),
  deployments: refOf('apps', 'deployments'),
  statefulsets: refOf('apps', 'statefulsets'),
  controllerrevisions: refOf('apps', 'controllerrevisions'),
  jobs: refOf('batch', 'jobs'),
  cronjobs: refOf('batch', 'cronjobs'),
} as const

const defOf = (r: ResourceRef): ResourceDef => {
  const def = findResource(r.group, r.version, r.plural)
  if (!def) throw new Error(`unknown resource ${r.group}/${r.version}/${r.plural}`)
  return def
}

export interface ObjectFixture {
  namespace?: string
  uid?: string
  owners?: OwnerReference[]
  finalizers?: string[]
  deletionTimestamp?: string
  creationTimestamp?: string
  spec?: Json
  status?: Json
}

/** An object of any registered kind; namespaced kinds default to namespace `default`, uid to `uid-<name>`. */
export function newObject(resource: ResourceRef, name: string, f: ObjectFixture = {}): KubeObject {
  const def = defOf(resource)
  const metadata: KubeObject['metadata'] = {
    name,
    uid: f.uid ?? `uid-${name}`,
    resourceVersion: '1',
    creationTimestamp: f.creationTimestamp ?? '2025-01-01T00:00:00Z',
  }
  if (def.namespaced) metadata.namespace = f.namespace ?? 'default'
  if (f.owners) metadata.ownerReferences = f.owners
  if (f.finalizers) metadata.finalizers = f.finalizers
  if (f.deletionTimestamp) metadata.deletionTimestamp = f.deletionTimestamp
  const o: KubeObject = { apiVersion: apiVersionOf(def), kind: def.kind, metadata }
  if (f.spec) o.spec = f.spec
  if (f.status) o.status = f.status
  return o
}

/** A node, Ready unless `ready: false`, with optional taints. */
export function newNode(name: string, f: { ready?: boolean; taints?: Json[] } = {}): KubeObject {
  const node = newObject(res.nodes, name, { status: { conditions: [{ type: 'Ready', status: f.ready === false ? 'False' : 'True' }] } })
  if (f.taints) node.spec = { taints: f.taints }
  return node
}

/** A reference to `owner` as controllers write it (controller and blockOwnerDeletion by default). */
export function ownerRef(owner: KubeObject, opts: { block?: boolean; controller?: boolean } = {}): OwnerReference {
  const ref: OwnerReference = { apiVersion: owner.apiVersion ?? '', kind: owner.kind ?? '', name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '' }
  if (opts.controller ?? true) ref.controller = true
  if (opts.block ?? true) ref.blockOwnerDeletion = true
  return ref
}

const keyOf = (r: ResourceRef) => `${r.group}/${r.plural}`
const objKey = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`



/**
 * A Cache over plain maps that applies actions like the kind store: a delete leaves the object
 * with a deletionTimestamp while finalizers (metadata.finalizers, a namespace's spec.finalizers)
 * remain or a bound pod has a grace period; an update or patch that empties the finalizers of an
 * object being deleted removes it. Foreground and Orphan deletes add their finalizer.
 */
export class MemoryStore implements Cache {
  private readonly byResource = new Map<string, Map<string, KubeObject>>()
  private revision = 100
  /** the store's clock for deletionTimestamp */
  now = Date.parse('2025-06-01T12:00:00Z')
  /** one line per applied action: `delete pods default/p1 (Background)`, `gone pods default/p1`, … */
  readonly log: string[] = []

  constructor(entries: [ResourceRef, KubeObject][] = []) {
    for (const [r, o] of entries) this.put(r, o)
  }

  private bucket(r: ResourceRef): Map<string, KubeObject> {
    let m = this.byResource.get(keyOf(r))
    if (!m) this.byResource.set(keyOf(r), (m = new Map()))
    return m
  }

  put(r: ResourceRef, object: KubeObject): this {
    this.bucket(r).set(objKey(object.metadata.namespace, object.metadata.name ?? ''), object)
    return this
  }

  /** Removes an object behind the controller's back, as another client's write would. */
  remove(r: ResourceRef, namespace: string | undefined, name: string): void {
    this.bucket(r).delete(objKey(namespace, name))
  }

  get(r: ResourceRef, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.bucket(r).get(objKey(namespace, name))
  }

  list(r: ResourceRef, namespace?: string): KubeObject[] {
    const all = [...this.bucket(r).values()]
    return namespace === undefined ? all : all.filter((o) => o.metadata.namespace === namespace)
  }

  names(r: ResourceRef, namespace?: string): string[] {
    return this.list(r, namespace)
      .map((o) => o.metadata.name ?? '')
      .sort()
  }

  private where(r: ResourceRef, namespace: string | undefined, name: string) {
    return `${r.plural} ${namespace ? `${namespace}/` : ''}${name}`
  }

  private pending(r: ResourceRef, o: KubeObject): boolean {
    const def = defOf(r)
    if ((o.metadata.finalizers ?? []).length) return true
    if (def.kind === 'Namespace' && ((asRecord(o.spec).finalizers as string[] | undefined) ?? []).length) return true
    return false
  }

  /** Stores the next version of an object, or removes it when its deletion has nothing left to wait for. */
  private store(r: ResourceRef, next: KubeObject): void {
    const copy = structuredClone(next)
    copy.metadata.resourceVersion = String(++this.revision)
    if (copy.metadata.deletionTimestamp && !this.pending(r, copy) && !copy.metadata.deletionGracePeriodSeconds) {
      this.bucket(r).delete(objKey(copy.metadata.namespace, copy.metadata.name ?? ''))
      this.log.push(`gone ${this.where(r, copy.metadata.namespace, copy.metadata.name ?? '')}`)
      return
    }
    this.put(r, copy)
  }

  /** The node agent confirms a graceful pod deletion. */
  finishPod(namespace: string, name: string): void {
    const pod = this.get(res.pods, namespace, name)
    if (!pod?.metadata.deletionTimestamp) throw new Error(`pod ${name} is not terminating`)
    this.store(res.pods, { ...pod, metadata: { ...pod.metadata, deletionGracePeriodSeconds: 0 } })
  }

  apply(action: Action): void {
    switch (action.type) {
      case 'delete': {
        const { resource: r, namespace, name } = action
        const policy = (action as { propagationPolicy?: string }).propagationPolicy
        const current = this.get(r, namespace, name)
        if (!current) throw new Error(`delete: ${this.where(r, namespace, name)} not found`)
        if (action.preconditions?.uid && action.preconditions.uid !== current.metadata.uid) throw new Error(`delete: ${this.where(r, namespace, name)} uid precondition failed`)
        this.log.push(`delete ${this.where(r, namespace, name)}${policy ? ` (${policy})` : ''}${action.gracePeriodSeconds !== undefined ? ` grace=${action.gracePeriodSeconds}` : ''}`)
        const finalizers = [...(current.metadata.finalizers ?? [])]
        const policyFinalizer = policy === 'Orphan' ? 'orphan' : policy === 'Foreground' ? 'foregroundDeletion' : undefined
        if (policyFinalizer && !finalizers.includes(policyFinalizer)) finalizers.push(policyFinalizer)
        const def = defOf(r)
        const spec = asRecord(current.spec)
        const phase = asRecord(current.status).phase
        const grace =
          def.kind === 'Pod' && spec.nodeName && phase !== 'Succeeded' && phase !== 'Failed'
            ? (action.gracePeriodSeconds ?? (spec.terminationGracePeriodSeconds as number | undefined) ?? 30)
            : 0
        const next: KubeObject = { ...current, metadata: { ...current.metadata, finalizers } }
        if (!finalizers.length) delete next.metadata.finalizers
        const previousGrace = current.metadata.deletionGracePeriodSeconds
        if (!current.metadata.deletionTimestamp || (previousGrace !== undefined && grace < previousGrace)) {
          next.metadata.deletionTimestamp = formatTime(this.now + grace * 1000)
          next.metadata.deletionGracePeriodSeconds = grace
        }
        if (def.kind === 'Namespace') next.status = { ...asRecord(current.status), phase: 'Terminating' }
        if (!next.metadata.deletionGracePeriodSeconds) delete next.metadata.deletionGracePeriodSeconds
        this.store(r, next)
        return
      }
      case 'update':
      case 'updateStatus': {
        const r = action.resource
        const { namespace, name = '', resourceVersion } = action.object.metadata
        const current = this.get(r, namespace, name)
        if (!current) throw new Error(`${action.type}: ${this.where(r, namespace, name)} not found`)
        if (resourceVersion !== current.metadata.resourceVersion) throw new Error(`${action.type}: ${this.where(r, namespace, name)} conflict`)
        if (action.type === 'updateStatus') {
          this.log.push(`status ${this.where(r, namespace, name)}`)
          this.store(r, { ...current, status: action.object.status })
          return
        }
        if (current.metadata.deletionTimestamp) {
          const added = (action.object.metadata.finalizers ?? []).filter((f) => !(current.metadata.finalizers ?? []).includes(f))
          if (added.length) throw new Error(`update: ${name}: no new finalizers can be added while being deleted`)
        }
        this.log.push(`update ${this.where(r, namespace, name)}`)
        const metadata = { ...action.object.metadata, uid: current.metadata.uid, deletionTimestamp: current.metadata.deletionTimestamp }
        if (!metadata.deletionTimestamp) delete metadata.deletionTimestamp
        this.store(r, { ...action.object, metadata, status: current.status })
        return
      }
      case 'patch': {
        const { resource: r, namespace, name } = action
        const current = this.get(r, namespace, name)
        if (!current) throw new Error(`patch: ${this.where(r, namespace, name)} not found`)
        const patch = action.subresource === 'status' ? { status: asRecord(action.patch).status } : action.patch
        const next = applyMergePatch(current, patch) as KubeObject
        if (next.metadata.resourceVersion !== current.metadata.resourceVersion) throw new Error(`patch: ${this.where(r, namespace, name)} conflict`)
        this.log.push(`patch ${this.where(r, namespace, name)}${action.subresource ? '/status' : ''}`)
        this.store(r, next)
        return
      }
      case 'create':
        this.log.push(`create ${this.where(action.resource, action.object.metadata.namespace, action.object.metadata.name ?? '')}`)
        this.store(action.resource, action.object)
        return
      case 'finalize': {
        const current = this.get(res.namespaces, undefined, action.name)
        if (!current) throw new Error(`finalize: namespace ${action.name} not found`)
        this.log.push(`finalize namespaces ${action.name}`)
        this.store(res.namespaces, { ...current, spec: { ...asRecord(current.spec), finalizers: [] } })
        return
      }
      case 'bind':
        throw new Error('bind is not modelled here')
      case 'event':
        this.log.push(`event ${action.reason}`)
        return
    }
  }

  applyAll(actions: readonly Action[]): void {
    for (const a of actions) this.apply(a)
  }
}

/**
 * Runs resync passes (every key of `allKeys`, each reconciled against the store as it stands after
 * the previous key's actions) until a pass changes nothing; returns how many passes changed something.
 */
export function drive(def: ControllerDefinition, store: MemoryStore, now: number, maxPasses = 20): number {
  for (let pass = 0; pass < maxPasses; pass++) {
    let applied = 0
    for (const key of def.allKeys(store)) {
      const { actions } = def.reconcile(key, store, now)
      store.applyAll(actions)
      applied += actions.length
    }
    if (!applied) return pass
  }
  throw new Error(`still acting after ${maxPasses} passes`)
}
