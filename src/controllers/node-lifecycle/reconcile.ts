import type { KubeObject } from '../../apimachinery/types'
import type { Action, Cache, Outcome } from '../runtime/types'
import { onNode } from '../runtime/lookups'
import { leases, nodes, pods } from '../resources'
import { markConditionsUnknown } from './conditions'
import { planEviction } from './eviction'
import { NODE_LEASE_NAMESPACE, assessHealth, nodeConditions, type GracePeriods } from './heartbeat'
import { markPodNotReady } from './pod-readiness'
import { nodeTaints, reconcileTaints, type Taint } from './taints'
import { asRecord, type Json } from '../../apimachinery/json-value'
import { formatTime } from '../../apimachinery/meta-time'
import { limitNoExecuteTaint } from './eviction-rate'
import { DEFAULT_EVICTION_RATES, type EvictionRateOptions } from '../../settings/eviction-rates'

const readyOf = (conditions: readonly Json[]) => conditions.find((c) => c.type === 'Ready')?.status

/**
 * The pods one pass marks not ready or evicts on one node: each is a store write, and a pass must
 * stay under half the subrequests of an invocation. The rest are taken by the next pass, at once.
 */
export const MAX_POD_WRITES_PER_NODE_PASS = 100

function podsOn(cache: Cache, nodeName: string): KubeObject[] {
  return onNode(cache, pods, nodeName)
}

/** A node's conditions as this pass judges them: marked Unknown if its heartbeat is overdue. */
function healthNow(
  node: KubeObject,
  cache: Cache,
  now: number,
  periods: GracePeriods,
  nowTime: string,
): readonly Json[] {
  const health = assessHealth(
    node,
    cache.get(leases, NODE_LEASE_NAMESPACE, node.metadata.name ?? ''),
    now,
    periods,
  )
  return (
    health.stale ? markConditionsUnknown(node, nowTime).conditions : nodeConditions(node)
  ) as readonly Json[]
}

/**
 * One pass over node `nodeName`: health from its heartbeat, the condition-derived taints, and
 * eviction of pods that do not tolerate its NoExecute taints.
 *
 * The taint update is emitted before the status patch: the update carries the resourceVersion seen
 * in the cache and must reach the server before anything else bumps it, while the patch needs none.
 * Eviction acts on the taints the node carries now, not on those this pass adds; those take effect
 * when the updated node comes back through the watch, as they do for upstream's taint manager.
 */
export function reconcileNode(
  nodeName: string,
  cache: Cache,
  now: number,
  periods: GracePeriods,
  rates: EvictionRateOptions = DEFAULT_EVICTION_RATES,
): Outcome {
  const node = cache.get(nodes, undefined, nodeName)
  if (!node) return { actions: [] }
  const lease = cache.get(leases, NODE_LEASE_NAMESPACE, nodeName)
  const nowTime = formatTime(now)
  const actions: Action[] = []
  const waits: number[] = []

  const health = assessHealth(node, lease, now, periods)
  if (health.recheckInMs !== undefined) waits.push(health.recheckInMs)

  const before = nodeConditions(node)
  const marked = health.stale
    ? markConditionsUnknown(node, nowTime)
    : { conditions: before, changed: false }

  const spec = asRecord(node.spec)
  const current = nodeTaints(node)
  const reconciled = reconcileTaints(
    current,
    marked.conditions as { type: string; status: string }[],
    spec.unschedulable === true,
    nowTime,
  )
  const cluster = {
    nodes: () => cache.list(nodes),
    ready: (n: KubeObject) =>
      (n.metadata.name === nodeName
        ? marked.conditions
        : healthNow(n, cache, now, periods, nowTime)
      ).find((c) => c.type === 'Ready'),
  }
  const limited = limitNoExecuteTaint(node, current, reconciled.taints, cluster, now, rates)
  if (limited.retryInMs !== undefined) waits.push(limited.retryInMs)
  const taints = {
    taints: limited.taints,
    changed: JSON.stringify(limited.taints) !== JSON.stringify(current),
  }
  if (taints.changed) {
    const updated = structuredClone(node)
    const updatedSpec: Json = { ...spec, taints: taints.taints }
    if (taints.taints.length === 0) delete updatedSpec.taints
    updated.spec = updatedSpec
    actions.push({ type: 'update', resource: nodes, object: updated })
  }
  if (marked.changed) {
    actions.push({
      type: 'patch',
      resource: nodes,
      name: nodeName,
      subresource: 'status',
      patch: { status: { conditions: marked.conditions } },
    })
  }
  if (readyOf(before) === 'True' && readyOf(marked.conditions) !== 'True') {
    actions.push({
      type: 'event',
      involved: node,
      eventType: 'Normal',
      reason: 'NodeNotReady',
      message: `Node ${nodeName} status is now: NodeNotReady`,
    })
  }

  const noExecute: Taint[] = nodeTaints(node).filter((t) => t.effect === 'NoExecute')
  const unreachable = readyOf(marked.conditions) === 'Unknown'
  if (noExecute.length || unreachable) {
    let podWrites = 0
    for (const pod of podsOn(cache, nodeName)) {
      if (podWrites >= MAX_POD_WRITES_PER_NODE_PASS) {
        waits.push(0)
        break
      }
      if (unreachable) {
        const notReady = markPodNotReady(pod, nowTime)
        if (notReady) {
          actions.push({
            type: 'patch',
            resource: pods,
            namespace: pod.metadata.namespace,
            name: pod.metadata.name ?? '',
            subresource: 'status',
            patch: notReady,
          })
          podWrites++
          actions.push({
            type: 'event',
            involved: pod,
            eventType: 'Warning',
            reason: 'NodeNotReady',
            message: 'Node is not ready',
          })
        }
      }
      if (!noExecute.length || pod.metadata.deletionTimestamp) continue
      const plan = planEviction(pod, noExecute, now)
      if (plan.kind === 'wait') waits.push(plan.at - now)
      if (plan.kind !== 'evict') continue
      const { namespace, name = '', uid } = pod.metadata
      actions.push({ type: 'delete', resource: pods, namespace, name, preconditions: { uid } })
      podWrites++
      actions.push({
        type: 'event',
        involved: pod,
        eventType: 'Normal',
        reason: 'TaintManagerEviction',
        message: `Marking for deletion Pod ${namespace}/${name}`,
      })
    }
  }

  return waits.length ? { actions, requeueAfterMs: Math.min(...waits) } : { actions }
}
