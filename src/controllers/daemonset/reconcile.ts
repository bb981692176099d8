import type { KubeObject } from '../../apimachinery/types'
import { selectorFromLabelSelector, type LabelSelector } from '../../apimachinery/labels'
import { claimByRef } from '../history/claim'
import { templatePatch } from '../history/revision'
import { syncHistory } from '../history/sync'
import { revisionsToTruncate } from '../history/truncate'
import { controllerRevisions, daemonSets, nodes, pods } from '../resources'
import type { Action, Cache, Outcome, Refused } from '../runtime/types'
import { refusedCreate } from '../runtime/refusal'
import { BURST_REPLICAS, takeBurst } from '../runtime/burst'
import { availableInMs } from '../shared/pods'
import { manageDaemonPods, podsByNode } from './manage'
import { DAEMON_REVISION_LABEL, newDaemonPod } from './pod'
import { rollingUpdateDeletes } from './rolling'
import { computeStatus, statusChanged } from './status'
import { historyLimitOf, minReadySecondsOf, statusOf, strategyOf, toDaemonSet } from './types'
import { intOr } from '../../apimachinery/json-value'
import { splitKey } from '../../apimachinery/object-key'
import { event } from '../shared/events'
import { statusWrite } from '../shared/status-write'

function deletePod(pod: KubeObject): Action {
  return {
    type: 'delete',
    resource: pods,
    namespace: pod.metadata.namespace,
    name: pod.metadata.name ?? '',
    preconditions: { uid: pod.metadata.uid },
  }
}

/**
 * syncDaemonSet, as a checklist: read the DaemonSet (gone → nothing to do); claim its pods and
 * revisions; find or make the revision of its template, whose hash labels current pods; unless it
 * is being deleted, create a pod for every eligible node without one and delete pods that must go
 * (manage, at most BURST_REPLICAS of them a pass); when manage had nothing to do, let a rolling update delete old pods within
 * maxUnavailable; drop history past revisionHistoryLimit; write the status when it changed.
 */
export function reconcileDaemonSet(
  key: string,
  cache: Cache,
  now: number,
  refused?: Refused,
): Outcome {
  const { namespace, name } = splitKey(key)
  const stored = cache.get(daemonSets, namespace, name)
  if (!stored) return { actions: [] }
  const ds = toDaemonSet(stored)
  let selector: LabelSelector
  try {
    selector = selectorFromLabelSelector(ds.spec.selector)
  } catch {
    return { actions: [] }
  }
  const actions: Action[] = []
  // As createPods: the error a daemon pod's create got, on the DaemonSet.
  const failedPod = refusedCreate(refused, pods)
  if (failedPod)
    actions.push(event(ds, 'Warning', 'FailedCreate', `Error creating: ${failedPod.message}`))
  const podClaim = claimByRef(
    pods,
    ds,
    'apps/v1',
    'DaemonSet',
    selector,
    cache.list(pods, namespace),
  )
  const revisionClaim = claimByRef(
    controllerRevisions,
    ds,
    'apps/v1',
    'DaemonSet',
    selector,
    cache.list(controllerRevisions, namespace),
  )
  actions.push(...podClaim.actions, ...revisionClaim.actions)

  const history = syncHistory({
    owner: {
      owner: ds,
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      templateLabels: ds.spec.template?.metadata?.labels,
      labels: (hash) => ({ [DAEMON_REVISION_LABEL]: hash }),
    },
    owned: revisionClaim.owned,
    lookup: (n) => cache.get(controllerRevisions, namespace, n),
    data: templatePatch(ds.spec.template),
    collisionCount: intOr(statusOf(ds).collisionCount, 0),
  })
  actions.push(...history.actions)
  const cur = history.update
  // Revisions made before the hash label existed are known by their name (constructHistory).
  const hashOf = (r: KubeObject) =>
    r.metadata.labels?.[DAEMON_REVISION_LABEL] ?? r.metadata.name ?? ''
  const hash = hashOf(cur)

  const allNodes = cache.list(nodes)
  const owned = podClaim.owned
  const byNode = podsByNode(owned)
  let more = false
  if (!ds.metadata.deletionTimestamp) {
    const changes = manageDaemonPods(ds, allNodes, byNode)
    const wanted =
      changes.create.length || changes.delete.length || strategyOf(ds) !== 'RollingUpdate'
        ? changes.delete
        : rollingUpdateDeletes(ds, allNodes, byNode, hash, now)
    // At most BURST_REPLICAS creates and deletes together; the rest in the next pass, at once.
    const creates = takeBurst(changes.create)
    const deletes = takeBurst(wanted, BURST_REPLICAS - creates.taken.length)
    more = creates.more || deletes.more
    for (const node of creates.taken)
      actions.push({ type: 'create', resource: pods, object: newDaemonPod(ds, node, hash) })
    if (creates.taken.length)
      actions.push(
        event(
          ds,
          'Normal',
          'SuccessfulCreate',
          `Created ${creates.taken.length} daemon pod(s) for nodes: ${creates.taken.join(', ')}`,
        ),
      )
    for (const pod of deletes.taken)
      actions.push(
        deletePod(pod),
        event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`),
      )
  }

  const live = new Set([
    hash,
    ...owned.map((p) => p.metadata.labels?.[DAEMON_REVISION_LABEL] ?? ''),
  ])
  for (const r of revisionsToTruncate(
    history.sorted,
    (r) => live.has(hashOf(r)) || r === cur,
    historyLimitOf(ds),
  )) {
    actions.push({
      type: 'delete',
      resource: controllerRevisions,
      namespace,
      name: r.metadata.name ?? '',
      preconditions: { uid: r.metadata.uid },
    })
  }

  const status = computeStatus(ds, allNodes, byNode, hash, history.collisionCount, now)
  if (statusChanged(ds, status)) actions.push(statusWrite(daemonSets, stored, status))

  const minReady = minReadySecondsOf(ds)
  let requeueAfterMs: number | undefined = more ? 0 : undefined
  for (const p of owned) {
    const wait = availableInMs(p, minReady, now)
    if (wait !== undefined && (requeueAfterMs === undefined || wait < requeueAfterMs))
      requeueAfterMs = wait
  }
  return requeueAfterMs === undefined ? { actions } : { actions, requeueAfterMs }
}
