import type { KubeObject } from '../../apimachinery/types'
import { deployments, pods, replicaSets, sameResource } from '../resources'
import type { Cache, ResourceRef } from '../runtime/types'
import type { Deployment } from '../shared/workloads'
import { RECREATE, strategyType } from './fenceposts'
import { objectKey } from '../../apimachinery/object-key'
import { controllerOf, ownerKeysOf, type OwnerKind } from '../shared/owners'

const owners: OwnerKind = { resource: deployments, kind: 'Deployment' }

/**
 * A ReplicaSet change concerns its controlling Deployment, or (an orphan not being deleted) every
 * Deployment that could adopt it (getDeploymentsForReplicaSet).
 */
export function keysForReplicaSet(rs: KubeObject, cache: Cache): string[] {
  return ownerKeysOf(rs, cache, owners)
}

/**
 * A pod change concerns the Deployment that controls its ReplicaSet, when that Deployment uses
 * Recreate: only Recreate waits on pods themselves (for the old ones to be gone); a rolling update
 * follows its ReplicaSets' status, which the ReplicaSet controller keeps current (upstream likewise
 * only looks at pod deletions, for Recreate).
 */
export function keysForPod(pod: KubeObject, cache: Cache): string[] {
  const rs = controllerOf(pod, cache, { resource: replicaSets, kind: 'ReplicaSet' })
  const d = rs && controllerOf(rs, cache, owners)
  return d && strategyType(d as Deployment) === RECREATE ? [objectKey(d)] : []
}

export function deploymentKeysFor(
  resource: ResourceRef,
  object: KubeObject,
  cache: Cache,
): string[] {
  if (sameResource(resource, deployments)) return [objectKey(object)]
  if (sameResource(resource, replicaSets)) return keysForReplicaSet(object, cache)
  if (sameResource(resource, pods)) return keysForPod(object, cache)
  return []
}

export function allDeploymentKeys(cache: Cache): string[] {
  return cache.list(deployments).map(objectKey)
}
