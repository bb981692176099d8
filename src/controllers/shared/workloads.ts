import type { KubeObject } from '../../apimachinery/types'
import type { MetaLabelSelector } from '../../apimachinery/labels'
import { intOr, type Json } from '../../apimachinery/json-value'
import type { Condition } from '../../apimachinery/conditions'

/**
 * The apps/v1 ReplicaSet and Deployment fields the controllers read and write. Objects come from the
 * caches as plain JSON, so these are views: every field may be missing.
 */

export interface PodTemplate {
  metadata?: {
    labels?: Record<string, string>
    annotations?: Record<string, string>
    finalizers?: string[]
    [field: string]: unknown
  }
  spec?: Json
  [field: string]: unknown
}

export interface ReplicaSetSpec {
  replicas?: number
  minReadySeconds?: number
  selector?: MetaLabelSelector | null
  template?: PodTemplate
  [field: string]: unknown
}

export interface ReplicaSetStatus {
  replicas?: number
  fullyLabeledReplicas?: number
  readyReplicas?: number
  availableReplicas?: number
  observedGeneration?: number
  conditions?: Condition[]
  [field: string]: unknown
}

export interface ReplicaSet extends KubeObject {
  spec: ReplicaSetSpec
  status?: ReplicaSetStatus
}

export interface RollingUpdate {
  maxSurge?: number | string | null
  maxUnavailable?: number | string | null
}

export interface DeploymentSpec {
  replicas?: number
  selector?: MetaLabelSelector | null
  template?: PodTemplate
  strategy?: { type?: string; rollingUpdate?: RollingUpdate | null }
  minReadySeconds?: number
  revisionHistoryLimit?: number | null
  paused?: boolean | null
  progressDeadlineSeconds?: number | null
  [field: string]: unknown
}

export interface DeploymentStatus {
  observedGeneration?: number
  replicas?: number
  updatedReplicas?: number
  readyReplicas?: number
  availableReplicas?: number
  unavailableReplicas?: number
  conditions?: Condition[]
  collisionCount?: number
  [field: string]: unknown
}

export interface Deployment extends KubeObject {
  spec: DeploymentSpec
  status: DeploymentStatus
}

/** spec.replicas with the API default of 1 (a nil *int32 upstream is defaulted to 1 before any controller sees it). */
export function specReplicas(o: { spec: { replicas?: number } }): number {
  return intOr(o.spec.replicas, 1)
}

/** A ReplicaSet view over a deep copy of a cached object. */
export function toReplicaSet(o: KubeObject): ReplicaSet {
  const copy = structuredClone(o) as ReplicaSet
  if (!copy.spec || typeof copy.spec !== 'object') copy.spec = {}
  copy.metadata = { ...copy.metadata }
  return copy
}

/**
 * A typed view over a deep copy of a cached object, so a reconcile may change it freely: spec is
 * always an object, and status too when `withStatus` (steps that set status fields).
 */
export function workingCopy<T extends KubeObject>(o: KubeObject, withStatus = false): T {
  const copy = structuredClone(o) as KubeObject
  if (!copy.spec || typeof copy.spec !== 'object') copy.spec = {}
  if (withStatus && (!copy.status || typeof copy.status !== 'object')) copy.status = {}
  return copy as T
}

/** A Deployment view over a deep copy of a cached object; status is always present so steps can set it. */
export function toDeployment(o: KubeObject): Deployment {
  return workingCopy<Deployment>(o, true)
}

export function rsStatus(rs: ReplicaSet): ReplicaSetStatus {
  return rs.status && typeof rs.status === 'object' ? rs.status : {}
}

export function generationOf(o: KubeObject): number {
  return intOr(o.metadata.generation, 0)
}
