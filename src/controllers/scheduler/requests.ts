import type { KubeObject } from '../../apimachinery/types'
import { QuantityError, parseCount, parseCpuMillis } from '../../apimachinery/quantity'
import { asRecord, type Json } from '../../apimachinery/json-value'

/** Amounts by resource name: cpu in millicores, everything else as Quantity.Value(). */
export type ResourceList = Record<string, number>

const asArray = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : [])

/** Used for scoring only, for containers that request no cpu or memory (schedutil defaults). */
export const DEFAULT_MILLI_CPU_REQUEST = 100
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024

/** Parses a ResourceList; an unparsable quantity counts as absent (validation rejects them on write). */
export function toResourceList(raw: unknown): ResourceList {
  const out: ResourceList = {}
  for (const [name, q] of Object.entries(asRecord(raw))) {
    if (typeof q !== 'string' && typeof q !== 'number') continue
    try {
      out[name] = name === 'cpu' ? parseCpuMillis(q) : parseCount(q)
    } catch (e) {
      if (!(e instanceof QuantityError)) throw e
    }
  }
  return out
}

function addInto(target: ResourceList, add: ResourceList): void {
  for (const [k, v] of Object.entries(add)) target[k] = (target[k] ?? 0) + v
}

function maxInto(target: ResourceList, other: ResourceList): void {
  for (const [k, v] of Object.entries(other)) target[k] = Math.max(target[k] ?? 0, v)
}

/**
 * A container's requests. A resource with a limit but no request is requested at its limit, which
 * is what pod defaulting writes upstream and which this API server leaves to its readers.
 */
function containerRequests(container: Json, nonMissing: boolean): ResourceList {
  const resources = asRecord(container.resources)
  const reqs = { ...toResourceList(resources.limits), ...toResourceList(resources.requests) }
  if (nonMissing) {
    reqs.cpu ??= DEFAULT_MILLI_CPU_REQUEST
    reqs.memory ??= DEFAULT_MEMORY_REQUEST
  }
  return reqs
}

export interface PodRequestOptions {
  /** substitute the scoring defaults for cpu and memory a container leaves unset */
  nonMissing?: boolean
}

/**
 * What a pod reserves on its node, as resourcehelper.PodRequests computes it: the sum of its
 * containers and sidecars (restartPolicy Always init containers), or, if larger, what any init
 * container needs while it runs beside the sidecars started before it; plus spec.overhead.
 */
export function podRequests(pod: KubeObject, options: PodRequestOptions = {}): ResourceList {
  const spec = asRecord(pod.spec)
  const nonMissing = options.nonMissing ?? false
  const reqs: ResourceList = {}
  for (const c of asArray(spec.containers)) addInto(reqs, containerRequests(c, nonMissing))

  const sidecars: ResourceList = {}
  const initPeak: ResourceList = {}
  for (const c of asArray(spec.initContainers)) {
    const own = containerRequests(c, nonMissing)
    if (c.restartPolicy === 'Always') {
      addInto(reqs, own)
      addInto(sidecars, own)
      maxInto(initPeak, sidecars)
    } else {
      const whileRunning = { ...own }
      addInto(whileRunning, sidecars)
      maxInto(initPeak, whileRunning)
    }
  }
  maxInto(reqs, initPeak)
  addInto(reqs, toResourceList(spec.overhead))
  return reqs
}

// Cached nodes are replaced, never mutated, so their parsed allocatable can be kept per object.
const allocatables = new WeakMap<KubeObject, ResourceList>()

/** status.allocatable, or status.capacity for a node that reports only that. Do not modify the result. */
export function nodeAllocatable(node: KubeObject): ResourceList {
  let out = allocatables.get(node)
  if (!out) {
    const status = asRecord(node.status)
    allocatables.set(node, (out = toResourceList(status.allocatable ?? status.capacity)))
  }
  return out
}
