import { getCondition, setCondition } from '../../apimachinery/conditions'
import { isControlledBy, newControllerRef } from '../../apimachinery/owner-refs'
import { equalIgnoreHash } from '../shared/pod-template'
import { specReplicas, type ReplicaSet } from '../shared/workloads'
import { FOUND_NEW_RS_REASON, newCondition, NEW_RS_REASON, PROGRESSING } from './conditions'
import { podTemplateHash, POD_TEMPLATE_HASH_LABEL, replicaSetName } from './hash'
import type { Plan } from './plan'
import { hasProgressDeadline } from './progress-deadline'
import {
  cloneSelectorAndAddLabel,
  findNewReplicaSet,
  findOldReplicaSets,
  maxRevision,
  newRSNewReplicas,
  REVISION_ANNOTATION,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
} from './replica-sets'
import { intOr } from '../../apimachinery/json-value'
import { replicaSets } from '../resources'

export interface ReplicaSetsOf {
  newRS: ReplicaSet | undefined
  /** every other ReplicaSet of the Deployment, scaled down or not */
  oldRSs: ReplicaSet[]
}

/**
 * getAllReplicaSetsAndSyncRevision: the new ReplicaSet (created when asked and missing) and the
 * old ones, with the revisions brought in line. Undefined when the new ReplicaSet's name is taken
 * by a different one: status.collisionCount is raised and the sync ends there, as upstream's does.
 */
export function replicaSetsAndSyncRevision(
  plan: Plan,
  rsList: readonly ReplicaSet[],
  createIfMissing: boolean,
): ReplicaSetsOf | undefined {
  const oldRSs = findOldReplicaSets(plan.d, rsList)
  const newRS = newReplicaSet(plan, rsList, oldRSs, createIfMissing)
  return newRS === 'collision' ? undefined : { newRS, oldRSs }
}

function setMinReadySeconds(rs: ReplicaSet, seconds: number): void {
  if (seconds) rs.spec.minReadySeconds = seconds
  else delete rs.spec.minReadySeconds
}

/**
 * getNewReplicaSet. An existing one gets the Deployment's annotations, a revision above every old
 * one and the Deployment's minReadySeconds; the Deployment's revision follows it. A missing one is
 * created as `<deployment>-<hash>` with the hash label on its labels, selector and template.
 */
function newReplicaSet(
  plan: Plan,
  rsList: readonly ReplicaSet[],
  oldRSs: readonly ReplicaSet[],
  createIfMissing: boolean,
): ReplicaSet | undefined | 'collision' {
  const d = plan.d
  const newRevision = maxRevision(oldRSs) + 1
  const minReadySeconds = intOr(d.spec.minReadySeconds, 0)
  const existing = findNewReplicaSet(d, rsList)
  if (existing) {
    const annotated = setNewReplicaSetAnnotations(d, existing, newRevision, true)
    if (annotated || intOr(existing.spec.minReadySeconds, 0) !== minReadySeconds) {
      setMinReadySeconds(existing, minReadySeconds)
      plan.touch(existing)
    }
    // Upstream records the Deployment's revision on the pass after the ReplicaSet update; the
    // plan writes the ReplicaSet first, so both can happen in this one.
    setDeploymentRevision(d, existing.metadata.annotations?.[REVISION_ANNOTATION] ?? '')
    if (hasProgressDeadline(d) && !getCondition(d.status.conditions, PROGRESSING)) {
      d.status.conditions = setCondition(
        d.status.conditions,
        newCondition(
          PROGRESSING,
          'True',
          FOUND_NEW_RS_REASON,
          `Found new replica set "${existing.metadata.name}"`,
          plan.now,
        ),
      )
    }
    return existing
  }
  if (plan.newlyCreated) return plan.newlyCreated
  if (!createIfMissing) return undefined

  const template = structuredClone(d.spec.template ?? {})
  const hash = podTemplateHash(d)
  const labels = { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash }
  template.metadata = { ...template.metadata, labels }
  const rs: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: replicaSetName(d, hash),
      namespace: d.metadata.namespace,
      labels: { ...labels },
      ownerReferences: [newControllerRef(d, 'apps/v1', 'Deployment')],
    },
    spec: {
      replicas: 0,
      selector: cloneSelectorAndAddLabel(d.spec.selector, POD_TEMPLATE_HASH_LABEL, hash),
      template,
    },
  }
  setMinReadySeconds(rs, minReadySeconds)
  rs.spec.replicas = newRSNewReplicas(d, [...oldRSs, rs], rs)
  setNewReplicaSetAnnotations(d, rs, newRevision, false)

  const clash = plan.cache.get(replicaSets, d.metadata.namespace, rs.metadata.name ?? '') as
    | ReplicaSet
    | undefined
  if (clash) {
    // AlreadyExists: ours with the same template is the new ReplicaSet after all (a stale list);
    // anything else is a hash collision, resolved by hashing again with a higher collisionCount.
    if (isControlledBy(clash, d) && equalIgnoreHash(d.spec.template, clash.spec?.template)) {
      setDeploymentRevision(d, String(newRevision))
      return plan.track(clash)
    }
    d.status.collisionCount = (d.status.collisionCount ?? 0) + 1
    return 'collision'
  }

  plan.create(rs)
  const replicas = specReplicas(rs)
  if (replicas > 0)
    plan.event(
      rs,
      'Normal',
      'ScalingReplicaSet',
      `Scaled up replica set ${rs.metadata.name} from 0 to ${replicas}`,
    )
  setDeploymentRevision(d, String(newRevision))
  if (hasProgressDeadline(d)) {
    d.status.conditions = setCondition(
      d.status.conditions,
      newCondition(
        PROGRESSING,
        'True',
        NEW_RS_REASON,
        `Created new replica set "${rs.metadata.name}"`,
        plan.now,
      ),
    )
  }
  return rs
}
