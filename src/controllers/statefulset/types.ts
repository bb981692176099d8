import type { KubeObject } from '../../apimachinery/types'
import type { MetaLabelSelector } from '../../apimachinery/labels'
import { workingCopy, type PodTemplate } from '../shared/workloads'
import { asRecord, intOr, type Json } from '../../apimachinery/json-value'

/** The apps/v1 StatefulSet fields the controller reads and writes; every field may be missing. */
export interface StatefulSet extends KubeObject {
  spec: {
    replicas?: number
    selector?: MetaLabelSelector | null
    template?: PodTemplate
    serviceName?: string
    podManagementPolicy?: string
    updateStrategy?: {
      type?: string
      rollingUpdate?: { partition?: number; maxUnavailable?: number | string } | null
    }
    revisionHistoryLimit?: number | null
    minReadySeconds?: number
    volumeClaimTemplates?: KubeObject[]
    ordinals?: { start?: number } | null
    [field: string]: unknown
  }
  status?: StatefulSetStatus
}

export interface StatefulSetStatus {
  observedGeneration?: number
  replicas?: number
  readyReplicas?: number
  currentReplicas?: number
  updatedReplicas?: number
  availableReplicas?: number
  currentRevision?: string
  updateRevision?: string
  collisionCount?: number
  [field: string]: unknown
}

export function toStatefulSet(o: KubeObject): StatefulSet {
  return workingCopy<StatefulSet>(o)
}

export function statusOf(set: StatefulSet): StatefulSetStatus {
  return asRecord(set.status) as StatefulSetStatus
}

/**
 * The spec as upstream's defaulting leaves it: OrderedReady, RollingUpdate with partition 0, a
 * history of 10. The API server here does not default these fields, so the controller reads them so.
 */
export function replicasOf(set: StatefulSet): number {
  return intOr(set.spec.replicas, 1)
}

export function isParallel(set: StatefulSet): boolean {
  return set.spec.podManagementPolicy === 'Parallel'
}

export function strategyOf(set: StatefulSet): 'RollingUpdate' | 'OnDelete' {
  return set.spec.updateStrategy?.type === 'OnDelete' ? 'OnDelete' : 'RollingUpdate'
}

export function partitionOf(set: StatefulSet): number {
  return Math.max(0, intOr(asRecord(set.spec.updateStrategy?.rollingUpdate).partition, 0))
}

export function historyLimitOf(set: StatefulSet): number {
  return Math.max(0, intOr(set.spec.revisionHistoryLimit, 10))
}

export function minReadySecondsOf(set: StatefulSet): number {
  return Math.max(0, intOr(set.spec.minReadySeconds, 0))
}

export function startOrdinalOf(set: StatefulSet): number {
  return Math.max(0, intOr(asRecord(set.spec.ordinals).start, 0))
}

export type { Json }
