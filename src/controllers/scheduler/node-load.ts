import type { KubeObject } from '../../apimachinery/types'
import { pods } from '../resources'
import type { Cache } from '../runtime/types'
import type { NodeLoad } from './filter'
import { controllerUid, isTerminal, nodeNameOf } from './pods'
import { podRequests, type ResourceList } from './requests'

/** Everything the filters and scores need to know about the pods already on one node. */
export interface NodeUsage extends NodeLoad {
  /** requests with the scoring defaults for unset cpu/memory, as least-allocated scores them */
  nonZeroRequested: ResourceList
  /** running (not terminating) pods per controller uid, for the spread score */
  byOwner: Map<string, number>
}

export function emptyUsage(): NodeUsage {
  return { requested: {}, nonZeroRequested: {}, podCount: 0, byOwner: new Map() }
}

/** What one pod contributes to its node's usage, with the fields that decide it. */
interface Contribution {
  nodeName: string
  terminal: boolean
  terminating: boolean
  /** counted at all: bound and not finished */
  counted: boolean
  /** controller uid, only while the pod is not terminating: replicas being replaced do not repel */
  spreadOwner?: string
  requested: [string, number][]
  nonZeroRequested: [string, number][]
  /** the pass that last saw this pod in the cache */
  seen: number
}

function contributionOf(pod: KubeObject, seen: number): Contribution {
  const nodeName = nodeNameOf(pod)
  const terminal = isTerminal(pod)
  const terminating = !!pod.metadata.deletionTimestamp
  const counted = nodeName !== '' && !terminal
  return {
    nodeName,
    terminal,
    terminating,
    counted,
    spreadOwner: counted && !terminating ? controllerUid(pod) : undefined,
    requested: counted ? Object.entries(podRequests(pod)) : [],
    nonZeroRequested: counted ? Object.entries(podRequests(pod, { nonMissing: true })) : [],
    seen,
  }
}

/** Guards against a cache that updates objects in place: what decides counting must still hold. */
function stillCurrent(c: Contribution, pod: KubeObject): boolean {
  return (
    c.nodeName === nodeNameOf(pod) &&
    c.terminal === isTerminal(pod) &&
    c.terminating === !!pod.metadata.deletionTimestamp
  )
}

function addInto(target: ResourceList, add: readonly [string, number][], sign: number): void {
  for (const [k, v] of add) target[k] = (target[k] ?? 0) + sign * v
}

function apply(usages: Map<string, NodeUsage>, c: Contribution, sign: 1 | -1): void {
  if (!c.counted) return
  let usage = usages.get(c.nodeName)
  if (!usage) usages.set(c.nodeName, (usage = emptyUsage()))
  usage.podCount += sign
  addInto(usage.requested, c.requested, sign)
  addInto(usage.nonZeroRequested, c.nonZeroRequested, sign)
  if (c.spreadOwner) {
    const n = (usage.byOwner.get(c.spreadOwner) ?? 0) + sign
    if (n > 0) usage.byOwner.set(c.spreadOwner, n)
    else usage.byOwner.delete(c.spreadOwner)
  }
  if (usage.podCount === 0) usages.delete(c.nodeName)
}

/**
 * Sums the bound pods per node. Terminating pods still hold their resources until they are gone,
 * but they are not counted for spreading, since their replacements are what is being placed.
 */
export function nodeUsages(allPods: readonly KubeObject[]): Map<string, NodeUsage> {
  const usages = new Map<string, NodeUsage>()
  for (const pod of allPods) apply(usages, contributionOf(pod, 0), 1)
  return usages
}

interface UsageIndex {
  pass: number
  contributions: Map<KubeObject, Contribution>
  usages: Map<string, NodeUsage>
}

const indexes = new WeakMap<Cache, UsageIndex>()

/**
 * nodeUsages over the cache's pods, kept up to date between calls instead of recomputed: every
 * attempt needs the usage of every node, and summing every pod's requests for each pending pod
 * makes a batch quadratic in the cluster's pod count. Only pods whose cached object changed since
 * the previous call (by identity, or in what decides counting) are parsed and added or removed,
 * so the result equals nodeUsages(cache.list(pods)). It is shared between calls: read it, never
 * modify it.
 */
export function nodeUsagesOf(cache: Cache): ReadonlyMap<string, NodeUsage> {
  let index = indexes.get(cache)
  if (!index) indexes.set(cache, (index = { pass: 0, contributions: new Map(), usages: new Map() }))
  const pass = ++index.pass
  const listed = cache.list(pods)
  for (const pod of listed) {
    const known = index.contributions.get(pod)
    if (known && stillCurrent(known, pod)) {
      known.seen = pass
      continue
    }
    if (known) apply(index.usages, known, -1)
    const fresh = contributionOf(pod, pass)
    apply(index.usages, fresh, 1)
    index.contributions.set(pod, fresh)
  }
  if (index.contributions.size > listed.length) {
    for (const [pod, c] of index.contributions) {
      if (c.seen === pass) continue
      apply(index.usages, c, -1)
      index.contributions.delete(pod)
    }
  }
  return index.usages
}
