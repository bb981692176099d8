import type { KubeObject, Status } from '../../apimachinery/types'
import { ApiError } from '../../apimachinery/status'
import type { UserInfo } from '../../apimachinery/user-info'
import type { InformerCaches } from './cache'
import { EventCorrelator } from './event-correlator'
import { EventSpamFilter } from './event-spam-filter'
import type { Action, ResourceRef } from './types'
import { customResourceDefinitions, events as eventsRef, namespaces, pods, resourceDefOf } from '../resources'
import type { AdmissionLookups } from '../../admission/lookups'
import { formatTime } from '../../apimachinery/meta-time'
import type { ItemResult } from '../../apis/store-options'
import { certificateSigningRequests } from '../csr-signing/reconcile'
import type { ResourceDef } from '../../apis/registry'
import type { ControllerStores } from './controller-stores'
import { nameSuffix } from '../../apis/strategy'



function unwrapText(res: { ok: true; value: { object: string; pending?: boolean; deleted?: boolean } } | { ok: false; status: import('../../apimachinery/types').Status }) {
  if (!res.ok) throw new ApiError(res.status)
  return { object: JSON.parse(res.value.object) as KubeObject, pending: res.value.pending, deleted: res.value.deleted }
}

/**
 * A copy of a new object with the name its generateName would draw: kube-apiserver names an
 * object before admission, so a refusal (`pods "web-7d4b9c-x5k2p" is forbidden: exceeded quota…`)
 * names it.
 */
function namedForAdmission(o: KubeObject): KubeObject {
  if (o.metadata.name || !o.metadata.generateName) return o
  return { ...o, metadata: { ...o.metadata, name: `${o.metadata.generateName}${nameSuffix()}` } }
}

/** The admitted object, with the name left for the store to draw when the action gave none (the store redraws on a collision). */
function unnamed(admitted: KubeObject, asked: KubeObject): KubeObject {
  if (asked.metadata.name) return admitted
  const { name: _drawn, ...metadata } = admitted.metadata
  return { ...admitted, metadata }
}

/** Writes a result into the cache: a write that finished a deletion removes the object. */
function record(caches: InformerCaches, r: ResourceRef, result: { object: KubeObject; deleted?: boolean }): void {
  const o = result.object
  if (result.deleted) caches.of(r).remove(o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : `${o.metadata.name}`, Number(o.metadata.resourceVersion))
  else caches.of(r).put(o)
}

/**
 * Performs one action against the stores and records its result in the caches at once, so the
 * rest of the pass (and the next one) never acts on a state older than its own writes. A create's
 * admission reads LimitRanges and quotas through `lookups` (its batch's shared reads; by default
 * its own).
 */
export async function applyAction(stores: ControllerStores, caches: InformerCaches, controller: string, action: Action, now: number, lookups?: AdmissionLookups): Promise<void> {
  switch (action.type) {
    case 'create': {
      const def = resourceDefOf(action.resource)
      const target = { def, namespace: action.object.metadata.namespace, name: action.object.metadata.name ?? '' }
      const o = namedForAdmission(action.object)
      await stores.admitCreate(def, target, o, lookups, controllerUser(controller))
      const res = await stores.admitted(def, controllerUser(controller)).create(target, unnamed(o, action.object), {})
      caches.of(action.resource).put(unwrapText(res).object)
      return
    }
    case 'update':
    case 'updateStatus': {
      const def = resourceDefOf(action.resource)
      const o = action.object
      // A projection written back would erase every field the cache does not keep.
      if (!caches.keepsWhole(action.resource, action.type === 'updateStatus' ? 'status' : undefined)) {
        throw new Error(`${controller} caches ${def.plural} projected and may not ${action.type === 'update' ? 'update them whole' : 'replace their status'}`)
      }
      const res = await stores.admitted(def, controllerUser(controller)).update({ def, namespace: o.metadata.namespace, name: o.metadata.name ?? '' }, o, action.type === 'updateStatus' ? 'status' : undefined, {})
      record(caches, action.resource, unwrapText(res))
      return
    }
    case 'patch': {
      const def = resourceDefOf(action.resource)
      const res = await stores.admitted(def, controllerUser(controller)).patch({ def, namespace: action.namespace, name: action.name }, 'merge', action.patch, action.subresource, {})
      record(caches, action.resource, unwrapText(res))
      return
    }
    case 'delete': {
      const def = resourceDefOf(action.resource)
      const res = await stores.admitted(def, controllerUser(controller)).delete(
        { def, namespace: action.namespace, name: action.name },
        { preconditions: action.preconditions, gracePeriodSeconds: action.gracePeriodSeconds, propagationPolicy: action.propagationPolicy },
      )
      // As upstream controllers: an object already gone (or replaced under the same name) needs no delete.
      const failed = res.ok ? undefined : (res as unknown as { status: Status }).status
      if (failed && (failed.code === 404 || (failed.code === 409 && action.preconditions?.uid))) {
        caches.of(action.resource).remove(action.namespace ? `${action.namespace}/${action.name}` : action.name, 0)
        return
      }
      const { object, pending } = unwrapText(res)
      if (pending) caches.of(action.resource).put(object)
      else caches.of(action.resource).remove(action.namespace ? `${action.namespace}/${action.name}` : action.name, Number(object.metadata.resourceVersion))
      return
    }
    case 'scale': {
      const def = resourceDefOf(action.resource)
      const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: action.name, namespace: action.namespace }, spec: { replicas: action.replicas } }
      // The answer is the Scale, not the workload: the workload's change reaches the cache through its store.
      unwrapText(await stores.admitted(def, controllerUser(controller)).update({ def, namespace: action.namespace, name: action.name }, scale, 'scale', {}))
      return
    }
    case 'bind': {
      const def = resourceDefOf(pods)
      const res = await stores.store(def).bind({ def, namespace: action.namespace, name: action.name }, action.nodeName, action.uid, {})
      caches.of(pods).put(unwrapText(res).object)
      return
    }
    case 'finalize': {
      const def = resourceDefOf(namespaces)
      const res = await stores.store(def).update({ def, name: action.name }, { metadata: { name: action.name }, spec: { finalizers: [] } }, 'finalize', {})
      record(caches, namespaces, unwrapText(res))
      return
    }
    case 'purgeCustomResources': {
      const written = await stores.purgeCustomResources(action.crd)
      if (written) record(caches, customResourceDefinitions, written)
      return
    }
    case 'emptyNamespace': {
      const ns = caches.get(namespaces, undefined, action.name)
      if (!ns) return
      for (const next of await stores.emptyNamespace(ns, action.resources, now)) await applyAction(stores, caches, controller, next, now)
      return
    }
    case 'issueCertificate': {
      const def = resourceDefOf(certificateSigningRequests)
      const o = await stores.signedStatus(action.csr, action.notBefore, action.notAfter, now)
      const res = await stores.admitted(def, controllerUser(controller)).update({ def, name: o.metadata.name ?? '' }, o, 'status', {})
      record(caches, certificateSigningRequests, unwrapText(res))
      return
    }
    case 'event':
      return recordEvent(stores, newEvent(action, controller, now), now)
  }
}

/** Identical events of every controller in this isolate, remembered so a repeat bumps the first one's count. */
const correlator = new EventCorrelator()

/**
 * Each controller's spam filter, as each of kube-controller-manager's controllers has its own
 * event recorder: one per runner's stores, for as long as the runner lives.
 */
const spamFilters = new WeakMap<ControllerStores, EventSpamFilter>()

/**
 * Whether the spam filter holds the event back. As upstream's correlator, a held-back repeat still
 * counts: the next one written carries the count of every occurrence.
 */
function heldBack(stores: ControllerStores, event: KubeObject, now: number): boolean {
  let filter = spamFilters.get(stores)
  if (!filter) spamFilters.set(stores, (filter = new EventSpamFilter()))
  if (filter.admits(event, now)) return false
  const repeat = correlator.repeatOf(event)
  if (repeat) correlator.remember(event, { ...repeat, count: repeat.count + 1 })
  return true
}

/** Writes an event unless the spam filter holds it back. */
async function recordEvent(stores: ControllerStores, event: KubeObject, now: number): Promise<void> {
  if (!heldBack(stores, event, now)) await writeEvent(stores, event, now)
}

/** Writes an event, or, when it repeats one written before, bumps that event's count and lastTimestamp. */
async function writeEvent(stores: ControllerStores, event: KubeObject, now: number, onCall: () => void = () => {}): Promise<void> {
  const def = resourceDefOf(eventsRef)
  const store = stores.store(def)
  const repeat = correlator.repeatOf(event)
  if (repeat) {
    const count = repeat.count + 1
    onCall()
    const res = await store.patch({ def, namespace: repeat.namespace, name: repeat.name }, 'merge', { count, lastTimestamp: formatTime(now) }, undefined, {})
    if (res.ok) {
      correlator.remember(event, { ...repeat, count })
      return
    }
    // Expired or deleted since: the repeat starts a new event.
    correlator.forget(event)
  }
  onCall()
  unwrapText(await store.create({ def, namespace: event.metadata.namespace, name: event.metadata.name! }, event, {}))
  correlator.remember(event, { namespace: event.metadata.namespace!, name: event.metadata.name!, count: 1 })
}

type EventAction = Extract<Action, { type: 'event' }>
type BatchCreator = { createMany(def: ResourceDef, objects: KubeObject[]): Promise<ItemResult[]> }

/**
 * Writes many events, less those the spam filter holds back: the new ones in calls of up to
 * `eventsPerCall` to the events store, then the repeats (of earlier events, or of one in this
 * batch) as writeEvent bumps them. Answers per event: undefined when written or held back, else
 * the store's refusal. `onCall` is told of each store call.
 */
export async function recordEvents(stores: ControllerStores, events: readonly { action: EventAction; now: number }[], controller: string, onCall: () => void = () => {}): Promise<(Status | undefined)[]> {
  const def = resourceDefOf(eventsRef)
  const store = stores.store(def) as unknown as BatchCreator
  const answers: (Status | undefined)[] = new Array(events.length).fill(undefined)
  const fresh: { index: number; event: KubeObject }[] = []
  const repeats: { index: number; event: KubeObject; now: number }[] = []
  for (const [index, { action, now }] of events.entries()) {
    const event = newEvent(action, controller, now)
    if (heldBack(stores, event, now)) continue
    if (correlator.repeatOf(event)) repeats.push({ index, event, now })
    else {
      fresh.push({ index, event })
      correlator.remember(event, { namespace: event.metadata.namespace!, name: event.metadata.name!, count: 1 })
    }
  }
  for (let done = 0; done < fresh.length; ) {
    const batch = fresh.slice(done, done + eventsPerCall)
    onCall()
    const results = await store.createMany(def, batch.map((f) => f.event))
    if (results.length === 0) throw new Error('the events store answered no create')
    for (const [i, r] of results.entries()) {
      if (r.object !== undefined) continue
      correlator.forget(batch[i]!.event)
      answers[batch[i]!.index] = r.status
    }
    done += results.length
  }
  for (const r of repeats) {
    try {
      await writeEvent(stores, r.event, r.now, onCall)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      answers[r.index] = e.status
    }
  }
  return answers
}

/** Events sent to the events store per call. */
const eventsPerCall = 50

/** The component names upstream's schedulers and controllers sign their events with. */
const eventSources: Record<string, string> = {
  scheduler: 'default-scheduler',
  'node-lifecycle': 'node-controller',
  'node-ipam': 'cidrAllocator',
  replicaset: 'replicaset-controller',
  replicationcontroller: 'replication-controller',
  deployment: 'deployment-controller',
  statefulset: 'statefulset-controller',
  daemonset: 'daemonset-controller',
  job: 'job-controller',
  cronjob: 'cronjob-controller',
  endpoints: 'endpoint-controller',
  endpointslice: 'endpoint-slice-controller',
  'garbage-collector': 'garbage-collector-controller',
  namespace: 'namespace-controller',
  'horizontal-pod-autoscaler': 'horizontal-pod-autoscaler',
}

/**
 * Who a controller's writes are made as, for admission webhooks: the service account
 * kube-controller-manager gives each controller (`--use-service-account-credentials`), and the
 * scheduler's own user.
 */
export function controllerUser(controller: string): UserInfo {
  if (controller === 'scheduler') return { username: 'system:kube-scheduler', groups: ['system:authenticated'] }
  const named = eventSources[controller]
  const account = named?.endsWith('-controller') ? named : `${controller}-controller`
  return { username: `system:serviceaccount:kube-system:${account}`, groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] }
}

/** Counts events named in this isolate, from a random start, so no two in one millisecond share a name. */
let eventSequence = Math.floor(Math.random() * 1_000_000)

/**
 * `<object>.<hex>` as the event recorder names events (`%x` of the time in nanoseconds): here the
 * milliseconds with a per-isolate sequence in the sub-millisecond digits, so a burst of events
 * about one object within one pass never collides.
 */
export function eventName(objectName: string, now: number): string {
  eventSequence = (eventSequence + 1) % 1_000_000
  return `${objectName}.${(BigInt(Math.floor(now)) * 1_000_000n + BigInt(eventSequence)).toString(16)}`
}

/** A core/v1 Event as kube-controller-manager's event recorder writes it. */
export function newEvent(action: Extract<Action, { type: 'event' }>, controllerName: string, now: number): KubeObject {
  const controller = eventSources[controllerName] ?? controllerName
  const o = action.involved
  const namespace = o.metadata.namespace || 'default'
  const at = formatTime(now)
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: eventName(o.metadata.name ?? '', now), namespace },
    involvedObject: {
      kind: o.kind,
      namespace: o.metadata.namespace,
      name: o.metadata.name,
      uid: o.metadata.uid,
      apiVersion: o.apiVersion,
      resourceVersion: o.metadata.resourceVersion,
    },
    reason: action.reason,
    message: action.message,
    source: { component: controller },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    type: action.eventType,
    eventTime: null,
    reportingComponent: controller,
    reportingInstance: '',
  }
}
