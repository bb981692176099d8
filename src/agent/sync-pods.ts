/**
 * Pure: what to do about each pod, from the pods the API binds to this node and what the runtime
 * holds. The agent executes the actions; nothing here does I/O or reads a clock.
 */
import type { KubeObject } from '../apimachinery/types'
import { parseBytes, parseCpuMillis } from '../apimachinery/quantity'

/** The agent's view of one pod in the runtime. */
export interface RuntimePodView {
  /** stop() was called with this grace period and has not finished */
  stoppingGrace?: number
  /** stop() finished: no process of the pod is left */
  stopped: boolean
}

export type SyncAction =
  /** the node cannot take the pod: post phase Failed with this reason */
  | { type: 'reject'; pod: KubeObject; reason: string; message: string }
  /** hand the pod to the runtime (first time, or again to retry containers waiting on config) */
  | { type: 'start'; pod: KubeObject }
  /** post the pod's status if it changed */
  | { type: 'report'; pod: KubeObject }
  /** stop the pod's containers with this grace period */
  | { type: 'stop'; pod: KubeObject; gracePeriodSeconds: number }
  /** the containers are gone: finish the graceful deletion in the API */
  | { type: 'delete'; pod: KubeObject }
  /** the API no longer has the pod: stop what is left and drop it from the runtime */
  | { type: 'remove'; uid: string; gracePeriodSeconds: number }

export interface PodDecisionInput {
  uid: string
  /** the pod as the API has it; undefined once it was deleted */
  pod: KubeObject | undefined
  /** the runtime's copy; undefined when the runtime never took the pod */
  runtime?: RuntimePodView
  /** for a pod the runtime has not taken yet: whether admission let it in */
  admission?: { ok: true } | { ok: false; reason: string; message: string }
  /** containers still wait on configuration: sync again */
  retry?: boolean
}

/** Grace for pods whose API object vanished while they ran (force deletion): a short last chance. */
export const ORPHAN_GRACE_SECONDS = 2

const phaseOf = (pod: KubeObject) => (pod.status as { phase?: string } | undefined)?.phase
export const isTerminal = (pod: KubeObject): boolean =>
  phaseOf(pod) === 'Succeeded' || phaseOf(pod) === 'Failed'

/** The grace period of a deletion in progress: what the API recorded, else the pod's own. */
export function deletionGrace(pod: KubeObject): number {
  const fromMeta = pod.metadata.deletionGracePeriodSeconds
  if (typeof fromMeta === 'number') return Math.max(0, fromMeta)
  const spec = (pod.spec ?? {}) as { terminationGracePeriodSeconds?: number }
  return Math.max(0, spec.terminationGracePeriodSeconds ?? 30)
}

/** The actions for one pod, in the order they are to run. */
export function decidePod(input: PodDecisionInput): SyncAction[] {
  const { uid, pod, runtime } = input
  if (!pod) {
    if (!runtime) return []
    return [
      {
        type: 'remove',
        uid,
        gracePeriodSeconds: runtime.stopped
          ? 0
          : Math.min(runtime.stoppingGrace ?? ORPHAN_GRACE_SECONDS, ORPHAN_GRACE_SECONDS),
      },
    ]
  }

  if (pod.metadata.deletionTimestamp) {
    if (!runtime || runtime.stopped)
      return runtime
        ? [
            { type: 'report', pod },
            { type: 'delete', pod },
          ]
        : [{ type: 'delete', pod }]
    const grace = deletionGrace(pod)
    // A shorter grace period (a second `kubectl delete --grace-period`) escalates a stop in progress.
    if (runtime.stoppingGrace === undefined || grace < runtime.stoppingGrace)
      return [{ type: 'stop', pod, gracePeriodSeconds: grace }]
    return []
  }

  if (isTerminal(pod)) {
    // A finished pod keeps its containers' output until it is deleted, but nothing may run.
    if (runtime && !runtime.stopped && runtime.stoppingGrace === undefined)
      return [{ type: 'stop', pod, gracePeriodSeconds: deletionGrace(pod) }]
    return []
  }

  if (!runtime) {
    const admission = input.admission ?? { ok: true }
    if (!admission.ok)
      return [{ type: 'reject', pod, reason: admission.reason, message: admission.message }]
    return [
      { type: 'start', pod },
      { type: 'report', pod },
    ]
  }
  if (runtime.stoppingGrace !== undefined || runtime.stopped) return [{ type: 'report', pod }]
  if (input.retry)
    return [
      { type: 'start', pod },
      { type: 'report', pod },
    ]
  return [{ type: 'report', pod }]
}

/** Every pod's actions plus removals of runtime pods the API no longer has. */
export function syncPods(input: {
  pods: KubeObject[]
  runtime: Map<string, RuntimePodView>
  capacity: Record<string, string>
  retry?: Set<string>
}): SyncAction[] {
  const admission = admitPods(input.pods, new Set(input.runtime.keys()), input.capacity)
  const actions: SyncAction[] = []
  const seen = new Set<string>()
  for (const pod of input.pods) {
    const uid = pod.metadata.uid ?? ''
    seen.add(uid)
    actions.push(
      ...decidePod({
        uid,
        pod,
        runtime: input.runtime.get(uid),
        admission: admission.get(uid),
        retry: input.retry?.has(uid),
      }),
    )
  }
  for (const [uid, view] of input.runtime)
    if (!seen.has(uid)) actions.push(...decidePod({ uid, pod: undefined, runtime: view }))
  return actions
}

interface Requests {
  /** millicores */
  cpu: number
  /** bytes */
  memory: number
}

/** A pod's effective requests: the larger of the app containers' sum and any single init container. */
export function podRequests(pod: KubeObject): Requests {
  const spec = (pod.spec ?? {}) as {
    containers?: ContainerResources[]
    initContainers?: ContainerResources[]
  }
  const sum: Requests = { cpu: 0, memory: 0 }
  for (const c of spec.containers ?? []) {
    sum.cpu += request(c, 'cpu')
    sum.memory += request(c, 'memory')
  }
  for (const c of spec.initContainers ?? []) {
    sum.cpu = Math.max(sum.cpu, request(c, 'cpu'))
    sum.memory = Math.max(sum.memory, request(c, 'memory'))
  }
  return sum
}

interface ContainerResources {
  resources?: {
    requests?: Record<string, string | number>
    limits?: Record<string, string | number>
  }
}

/** cpu in millicores, memory in bytes */
const amount = (resource: 'cpu' | 'memory', q: string | number) =>
  resource === 'cpu' ? parseCpuMillis(q) : parseBytes(q)

function request(c: ContainerResources, resource: 'cpu' | 'memory'): number {
  const raw = c.resources?.requests?.[resource] ?? c.resources?.limits?.[resource]
  if (raw === undefined) return 0
  try {
    return amount(resource, raw)
  } catch {
    return 0
  }
}

/**
 * kubelet's admission of new pods against the node's allocatable pods, cpu and memory. Pods the
 * runtime already holds count as admitted; new ones are admitted oldest first.
 */
export function admitPods(
  pods: KubeObject[],
  held: Set<string>,
  allocatable: Record<string, string>,
): Map<string, { ok: true } | { ok: false; reason: string; message: string }> {
  const out = new Map<string, { ok: true } | { ok: false; reason: string; message: string }>()
  const cap = {
    pods: Number(allocatable.pods ?? Infinity),
    cpu: allocatable.cpu !== undefined ? amount('cpu', allocatable.cpu) : Infinity,
    memory: allocatable.memory !== undefined ? amount('memory', allocatable.memory) : Infinity,
  }
  const live = pods.filter((p) => !isTerminal(p) && !p.metadata.deletionTimestamp)
  const used = { pods: 0, cpu: 0, memory: 0 }
  for (const p of live) {
    if (!held.has(p.metadata.uid ?? '')) continue
    const r = podRequests(p)
    used.pods++
    used.cpu += r.cpu
    used.memory += r.memory
  }
  const fresh = live
    .filter((p) => !held.has(p.metadata.uid ?? ''))
    .sort(
      (a, b) =>
        String(a.metadata.creationTimestamp ?? '').localeCompare(
          String(b.metadata.creationTimestamp ?? ''),
        ) || String(a.metadata.name).localeCompare(String(b.metadata.name)),
    )
  for (const p of fresh) {
    const r = podRequests(p)
    let rejection: { ok: false; reason: string; message: string } | undefined
    if (used.pods + 1 > cap.pods) rejection = outOf('pods', 1, used.pods, cap.pods)
    else if (r.cpu > 0 && used.cpu + r.cpu > cap.cpu + 1e-9)
      rejection = outOf('cpu', r.cpu, used.cpu, cap.cpu)
    else if (r.memory > 0 && used.memory + r.memory > cap.memory)
      rejection = outOf('memory', r.memory, used.memory, cap.memory)
    if (rejection) {
      out.set(p.metadata.uid ?? '', rejection)
      continue
    }
    used.pods++
    used.cpu += r.cpu
    used.memory += r.memory
    out.set(p.metadata.uid ?? '', { ok: true })
  }
  return out
}

function outOf(
  resource: string,
  requested: number,
  used: number,
  capacity: number,
): { ok: false; reason: string; message: string } {
  const fmt = (n: number) => (resource === 'cpu' ? `${n}m` : String(n))
  return {
    ok: false,
    reason: `OutOf${resource}`,
    message: `Pod was rejected: Node didn't have enough resource: ${resource}, requested: ${fmt(requested)}, used: ${fmt(used)}, capacity: ${fmt(capacity)}`,
  }
}
