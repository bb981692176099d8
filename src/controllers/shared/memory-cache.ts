import { applyMergePatch } from '../../apimachinery/patch'
import type { KubeObject } from '../../apimachinery/types'
import { pods, sameResource } from '../resources'
import type { Action, Cache, ControllerDefinition, ResourceRef } from '../runtime/types'
import { deployments, replicaSets } from './resources'
import { isJsonObject, jsonEqual, type Json } from '../../apimachinery/json-value'
import { formatTime } from '../../apimachinery/meta-time'

/**
 * An in-memory Cache for the workload controllers' tests that applies actions as the stores would
 * (names from generateName, uids, generations, status kept apart from spec, preconditions), plus a
 * runner pass and a kubelet stand-in, so that tests can drive several passes of both controllers.
 */

/** The tests' clock origin. */
export const T0 = Date.parse('2025-06-01T12:00:00Z')

const refsByKind: Record<string, ResourceRef> = { Pod: pods, ReplicaSet: replicaSets, Deployment: deployments }
const withGeneration = new Set(['ReplicaSet', 'Deployment'])
const keyOf = (r: ResourceRef) => `${r.group}/${r.version}/${r.plural}`
const suffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789'

/** RFC 7386 JSON merge patch. */

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
    if (current && withGeneration.has(next.kind ?? '') && !jsonEqual(current.spec, next.spec)) next.metadata.generation = (current.metadata.generation ?? 0) + 1
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
        o.metadata.creationTimestamp = formatTime(this.now)
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
          if (!jsonEqual(current.status, action.object.status)) this.write(action.resource, { ...current, status: structuredClone(action.object.status) })
          return
        }
        const { generation: _g, uid: _u, creationTimestamp: _c, ...meta } = action.object.metadata
        this.write(action.resource, { ...action.object, metadata: { ...current.metadata, ...meta }, status: current.status })
        return
      }
      case 'patch': {
        const current = this.current(action.resource, action.namespace, action.name, 'patch')
        const patch = (action.subresource === 'status' ? { status: (action.patch as Json).status } : action.patch) as Json
        const rv = isJsonObject(patch.metadata) ? patch.metadata.resourceVersion : undefined
        if (rv && rv !== current.metadata.resourceVersion) throw new Error(`patch: ${action.name} conflict`)
        const next = applyMergePatch(current, patch) as KubeObject
        next.metadata.uid = current.metadata.uid
        this.write(action.resource, next)
        return
      }
      case 'delete': {
        const current = this.current(action.resource, action.namespace, action.name, 'delete')
        if (action.preconditions?.uid && action.preconditions.uid !== current.metadata.uid) throw new Error(`delete: ${action.name} uid mismatch`)
        const bound = !!(current.spec as Json | undefined)?.nodeName
        if (this.gracefulPodDeletion && current.kind === 'Pod' && bound) {
          if (!current.metadata.deletionTimestamp) this.write(action.resource, { ...current, metadata: { ...current.metadata, deletionTimestamp: formatTime(this.now + 30_000) } })
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
  const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: formatTime(now) }] }
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

export interface SettleOptions {
  /** how far the clock moves between passes */
  stepMs?: number
  /** fail when the controllers have not settled after this many passes */
  maxSteps?: number
  /** how many pending pods the kubelet readies per pass */
  readyPerStep?: number
  /** whether kubelets readied pods at all (false: pods stay pending) */
  kubelet?: boolean
  /** called after every pass, e.g. to check invariants */
  onStep?: (step: number, now: number) => void
}

/**
 * Runs the controllers pass after pass against the cache, with a kubelet that readies pending pods
 * and finishes graceful deletions, until a pass changes nothing and asks for no requeue. Returns the
 * clock it stopped at.
 */
export function settle(cache: MemoryCache, controllers: readonly ControllerDefinition[], start: number, o: SettleOptions = {}): { now: number; steps: number } {
  const { stepMs = 1000, maxSteps = 100, readyPerStep = Infinity, kubelet = true } = o
  let now = start
  for (let step = 1; step <= maxSteps; step++) {
    cache.now = now
    let changes = 0
    let waiting = false
    for (const c of controllers) {
      const pass = runPass(c, cache, now)
      changes += pass.actions
      // A requeue (say, for minReadySeconds) means a later pass still has work.
      if (pass.requeueAfterMs !== undefined) waiting = true
    }
    if (kubelet) changes += markPendingPodsReady(cache, now, readyPerStep) + finishTerminatingPods(cache)
    o.onStep?.(step, now)
    if (changes === 0 && !waiting) return { now, steps: step }
    now += stepMs
  }
  throw new Error(`controllers did not settle within ${maxSteps} passes`)
}
