import type { KubeObject } from '../../apimachinery/types'
import { isEverything, matchesLabels, selectorFromLabelSelector } from '../../apimachinery/labels'
import { deployments, pods, replicaSets, sameResource } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import type { Deployment } from '../shared/workloads'
import { RECREATE, strategyType } from './fenceposts'
import { objectKey } from '../../apimachinery/object-key'

/** The Deployment the reference names, if the cache holds that very object (same uid), as resolveControllerRef. */
function controllingDeployment(o: KubeObject, cache: Cache): KubeObject | undefined {
  const ref = controllerRefOf(o)
  if (!ref || ref.kind !== 'Deployment') return undefined
  const d = cache.get(deployments, o.metadata.namespace, ref.name)
  return d && d.metadata.uid === ref.uid ? d : undefined
}

/** getDeploymentsForReplicaSet: the Deployments whose selector matches an orphan ReplicaSet's labels. */
function deploymentsSelecting(rs: KubeObject, cache: Cache): KubeObject[] {
  return cache.list(deployments, rs.metadata.namespace ?? '').filter((d) => {
    try {
      const selector = selectorFromLabelSelector((d as Deployment).spec?.selector)
      return !isEverything(selector) && matchesLabels(selector, rs.metadata.labels)
    } catch {
      return false
    }
  })
}

/** A ReplicaSet change concerns its controlling Deployment, or (an orphan not being deleted) every Deployment that could adopt it. */
export function keysForReplicaSet(rs: KubeObject, cache: Cache): string[] {
  if (controllerRefOf(rs)) {
    const d = controllingDeployment(rs, cache)
    return d ? [objectKey(d)] : []
  }
  if (rs.metadata.deletionTimestamp) return []
  return deploymentsSelecting(rs, cache).map(objectKey)
}

/**
 * A pod change concerns the Deployment that controls its ReplicaSet, when that Deployment uses
 * Recreate: only Recreate waits on pods themselves (for the old ones to be gone); a rolling update
 * follows its ReplicaSets' status, which the ReplicaSet controller keeps current (upstream likewise
 * only looks at pod deletions, for Recreate).
 */
export function keysForPod(pod: KubeObject, cache: Cache): string[] {
  const ref = controllerRefOf(pod)
  if (!ref || ref.kind !== 'ReplicaSet') return []
  const rs = cache.get(replicaSets, pod.metadata.namespace, ref.name)
  if (!rs || rs.metadata.uid !== ref.uid) return []
  const d = controllingDeployment(rs, cache)
  return d && strategyType(d as Deployment) === RECREATE ? [objectKey(d)] : []
}

export function deploymentKeysFor(resource: ResourceRef, object: KubeObject, cache: Cache): string[] {
  if (sameResource(resource, deployments)) return [objectKey(object)]
  if (sameResource(resource, replicaSets)) return keysForReplicaSet(object, cache)
  if (sameResource(resource, pods)) return keysForPod(object, cache)
  return []
}

export function allDeploymentKeys(cache: Cache): string[] {
  return cache.list(deployments).map(objectKey)
}
