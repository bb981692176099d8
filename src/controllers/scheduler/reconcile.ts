import type { KubeObject } from '../../apimachinery/types'
import type { Cache, Outcome } from '../runtime/types'
import { nodes, pods } from '../resources'
import { filterNode } from './filter'
import { emptyUsage, nodeUsagesOf } from './node-load'
import { nominatedLoads, plusNominated } from './nominated'
import { failedAttemptActions } from './preempt-actions'
import type { PreemptionNode } from './preemption'
import { controllerUid, isPendingFor, isTerminal, nodeNameOf } from './pods'
import { nodeAllocatable, podRequests } from './requests'
import { scoreNodes, selectNode, type FeasibleNode } from './score'
import { unschedulableActions } from './unschedulable'
import { preFilterMessage, volumeBinding } from './volume-binding'
import { splitKey } from '../../apimachinery/object-key'
import type { PodSecuritySettings } from '../../apis/pod-security/settings'
import { enforcedLevel } from './pod-security-fit'

/**
 * One scheduling attempt for the pod `namespace/name`: filter every node (counting what pods of
 * no lower priority nominated there will take), score the feasible ones, and bind to the best; or,
 * when none fits, preempt lower-priority pods to make room, or record why none fits.
 *
 * Capacity is read from the cache alone. This relies on the runner's contract that the result of
 * each action (here: the bind) is applied to its cache before the next key is reconciled, so a pod
 * bound earlier in the same pass already counts against its node and a batch of pending pods cannot
 * overcommit a node between two watch events.
 */
export function reconcilePod(
  key: string,
  cache: Cache,
  now: number,
  schedulerName: string,
  podSecurity?: PodSecuritySettings,
): Outcome {
  const { namespace, name } = splitKey(key)
  const pod = cache.get(pods, namespace, name)
  if (!pod || !isPendingFor(pod, schedulerName)) return { actions: [] }

  const volumes = volumeBinding(pod, cache)
  if (volumes.unschedulable)
    return {
      actions: unschedulableActions(
        pod,
        preFilterMessage(volumes.unschedulable, cache.list(nodes).length),
        now,
      ),
    }
  const usages = nodeUsagesOf(cache)
  const request = podRequests(pod)
  const allPods = cache.list(pods)
  const nominated = nominatedLoads(pod, allPods)
  const enforced = enforcedLevel(pod, cache, podSecurity)
  const feasible: FeasibleNode[] = []
  const rejected: Omit<PreemptionNode, 'pods'>[] = []
  for (const node of cache.list(nodes)) {
    const nodeName = node.metadata.name ?? ''
    const allocatable = nodeAllocatable(node)
    const usage = plusNominated(usages.get(nodeName) ?? emptyUsage(), nominated.get(nodeName))
    const rejection =
      filterNode(pod, node, request, allocatable, usage, enforced) ?? volumes.filter(node)
    if (rejection) rejected.push({ name: nodeName, rejection, allocatable, load: usage })
    else feasible.push({ name: nodeName, allocatable, usage })
  }

  // No requeue when nothing fits: node changes and freed capacity bring the pod back.
  if (feasible.length === 0) {
    const onNode = new Map<string, KubeObject[]>()
    for (const p of allPods) {
      const n = nodeNameOf(p)
      if (!n || isTerminal(p)) continue
      const list = onNode.get(n)
      if (list) list.push(p)
      else onNode.set(n, [p])
    }
    const podsOnNode = (n: string) => onNode.get(n) ?? []
    return {
      actions: failedAttemptActions(
        pod,
        rejected.map((r) => ({ ...r, pods: podsOnNode(r.name) })),
        podsOnNode,
        now,
      ),
    }
  }

  const nodeName = selectNode(
    scoreNodes(feasible, podRequests(pod, { nonMissing: true }), controllerUid(pod)),
  )!
  // Claims waiting for their first consumer are provisioned or bound for this node first; their
  // changes bring the pod back here, and it is bound once they are.
  const prebind = volumes.preBind(nodeName)
  if (!prebind.ready) return { actions: prebind.actions }
  return {
    actions: [
      { type: 'bind', namespace, name, uid: pod.metadata.uid ?? '', nodeName },
      {
        type: 'event',
        involved: pod,
        eventType: 'Normal',
        reason: 'Scheduled',
        message: `Successfully assigned ${namespace}/${name} to ${nodeName}`,
      },
    ],
  }
}
