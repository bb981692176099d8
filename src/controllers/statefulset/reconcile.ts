import type { KubeObject } from '../../apimachinery/types'
import { selectorFromLabelSelector, type LabelSelector } from '../../apimachinery/labels'
import { claimByRef } from '../history/claim'
import { templateOf, templatePatch } from '../history/revision'
import { syncHistory } from '../history/sync'
import { revisionsToTruncate } from '../history/truncate'
import { controllerRevisions, persistentVolumeClaims, pods, statefulSets } from '../resources'
import type { Action, Cache, Outcome, Refused } from '../runtime/types'
import { BURST_REPLICAS, takeBurst } from '../runtime/burst'
import { failedCreateEvents } from './failed-create'
import { availableInMs } from '../shared/pods'
import {
  identityMatches,
  identityPatch,
  isMemberOf,
  newStatefulSetPod,
  podRevision,
} from './identity'
import { planOrdinals, type Step } from './plan'
import { computeStatus, statusChanged } from './status'
import { volumeClaimsFor } from './volume-claims'
import {
  historyLimitOf,
  isParallel,
  minReadySecondsOf,
  partitionOf,
  replicasOf,
  startOrdinalOf,
  statusOf,
  strategyOf,
  toStatefulSet,
} from './types'
import { intOr } from '../../apimachinery/json-value'
import { splitKey } from '../../apimachinery/object-key'
import { event } from '../shared/events'
import { statusWrite } from '../shared/status-write'

/**
 * syncStatefulSet, as a checklist: read the set (gone → nothing to do); claim its pods (named after
 * it and matching its selector) and its revisions; find or make the revision of its template (the
 * update revision) and the current one; unless it is being deleted, plan the pod creates, deletes
 * and identity repairs (BURST_REPLICAS writes a pass); write the status when it changed; drop history past revisionHistoryLimit.
 */
export function reconcileStatefulSet(
  key: string,
  cache: Cache,
  now: number,
  refused?: Refused,
): Outcome {
  const { namespace, name } = splitKey(key)
  const stored = cache.get(statefulSets, namespace, name)
  if (!stored) return { actions: [] }
  const set = toStatefulSet(stored)
  let selector: LabelSelector
  try {
    selector = selectorFromLabelSelector(set.spec.selector)
  } catch {
    // An invalid selector selects nothing; validation keeps one from being stored.
    return { actions: [] }
  }
  const actions: Action[] = failedCreateEvents(set, refused)
  const podClaim = claimByRef(
    pods,
    set,
    'apps/v1',
    'StatefulSet',
    selector,
    cache.list(pods, namespace),
    (p) => isMemberOf(set, p),
  )
  const revisionClaim = claimByRef(
    controllerRevisions,
    set,
    'apps/v1',
    'StatefulSet',
    selector,
    cache.list(controllerRevisions, namespace),
  )
  actions.push(...podClaim.actions, ...revisionClaim.actions)

  const history = syncHistory({
    owner: {
      owner: set,
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      templateLabels: set.spec.template?.metadata?.labels,
    },
    owned: revisionClaim.owned,
    lookup: (n) => cache.get(controllerRevisions, namespace, n),
    data: templatePatch(set.spec.template),
    collisionCount: intOr(statusOf(set).collisionCount, 0),
  })
  actions.push(...history.actions)
  const update = history.update
  const updateName = update.metadata.name ?? ''
  const current =
    history.sorted.find((r) => r.metadata.name === statusOf(set).currentRevision) ?? update
  const currentName = current.metadata.name ?? ''
  const templates = {
    update: set.spec.template ?? {},
    current: current === update ? (set.spec.template ?? {}) : templateOf(current),
  }

  const owned = podClaim.owned
  const minReadySeconds = minReadySecondsOf(set)
  const planned: Step[] = set.metadata.deletionTimestamp
    ? []
    : planOrdinals({
        replicas: replicasOf(set),
        start: startOrdinalOf(set),
        pods: owned,
        monotonic: !isParallel(set),
        strategy: strategyOf(set),
        partition: partitionOf(set),
        currentRevision: currentName,
        updateRevision: updateName,
        minReadySeconds,
        now,
        identityOk: (p) => identityMatches(set, p),
      })
  // Parallel plans every missing pod at once: at most BURST_REPLICAS writes (a create's claims
  // included) a pass, the rest at once after.
  const missingClaims = (ordinal: number) =>
    volumeClaimsFor(set, ordinal).filter(
      (c) => !cache.get(persistentVolumeClaims, namespace, c.metadata.name ?? ''),
    ).length
  const { taken: steps, more } = takeBurst(planned, BURST_REPLICAS, (step) =>
    step.type === 'create' ? 1 + missingClaims(step.ordinal) : 1,
  )

  const creates: Action[] = []
  const after: Action[] = []
  for (const step of steps) {
    if (step.type === 'create') {
      const pod = newStatefulSetPod(
        set,
        templates[step.revision],
        step.revision === 'current' ? currentName : updateName,
        step.ordinal,
      )
      // As createPersistentVolumeClaims: the ordinal's claims exist before its pod.
      for (const claim of volumeClaimsFor(set, step.ordinal)) {
        if (!cache.get(persistentVolumeClaims, namespace, claim.metadata.name ?? ''))
          creates.push({ type: 'create', resource: persistentVolumeClaims, object: claim })
      }
      creates.push({ type: 'create', resource: pods, object: pod })
      after.push(
        event(
          set,
          'Normal',
          'SuccessfulCreate',
          `create Pod ${pod.metadata.name} in StatefulSet ${name} successful`,
        ),
      )
    } else if (step.type === 'delete') {
      const podName = step.pod.metadata.name ?? ''
      after.push(
        {
          type: 'delete',
          resource: pods,
          namespace,
          name: podName,
          preconditions: { uid: step.pod.metadata.uid },
        },
        event(
          set,
          'Normal',
          'SuccessfulDelete',
          `delete Pod ${podName} in StatefulSet ${name} successful`,
        ),
      )
    } else {
      after.push({
        type: 'patch',
        resource: pods,
        namespace,
        name: step.pod.metadata.name ?? '',
        patch: identityPatch(step.pod),
      })
    }
  }
  // Creates first, in one run the runner batches; deletes never share a pass with creates under OrderedReady.
  actions.push(...creates, ...after)

  const status = computeStatus(set, {
    pods: owned,
    steps,
    currentRevision: currentName,
    updateRevision: updateName,
    collisionCount: history.collisionCount,
    minReadySeconds,
    now,
  })
  if (statusChanged(set, status)) actions.push(statusWrite(statefulSets, stored, status))

  const live = new Set([status.currentRevision, updateName, ...owned.map(podRevision)])
  for (const r of revisionsToTruncate(
    history.sorted,
    (r) => live.has(r.metadata.name ?? ''),
    historyLimitOf(set),
  )) {
    actions.push({
      type: 'delete',
      resource: controllerRevisions,
      namespace,
      name: r.metadata.name ?? '',
      preconditions: { uid: r.metadata.uid },
    })
  }

  const requeueAfterMs = more ? 0 : soonestAvailable(owned, minReadySeconds, now)
  return requeueAfterMs === undefined ? { actions } : { actions, requeueAfterMs }
}

/** When a ready pod becomes available for minReadySeconds: the set must look again then. */
function soonestAvailable(
  owned: readonly KubeObject[],
  minReadySeconds: number,
  now: number,
): number | undefined {
  let soonest: number | undefined
  for (const p of owned) {
    const wait = availableInMs(p, minReadySeconds, now)
    if (wait !== undefined && (soonest === undefined || wait < soonest)) soonest = wait
  }
  return soonest
}
