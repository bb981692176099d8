import type { KubeObject } from '../../apimachinery/types'
import type { MetaLabelSelector } from '../../apimachinery/labels'
import { workingCopy, type PodTemplate } from '../shared/workloads'
import { asRecord, intOr } from '../../apimachinery/json-value'

/** The apps/v1 DaemonSet fields the controller reads and writes; every field may be missing. */
export interface DaemonSet extends KubeObject {
  spec: {
    selector?: MetaLabelSelector | null
    template?: PodTemplate
    updateStrategy?: {
      type?: string
      rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string } | null
    }
    minReadySeconds?: number
    revisionHistoryLimit?: number | null
    [field: string]: unknown
  }
  status?: DaemonSetStatus
}

export interface DaemonSetStatus {
  currentNumberScheduled?: number
  numberMisscheduled?: number
  desiredNumberScheduled?: number
  numberReady?: number
  observedGeneration?: number
  updatedNumberScheduled?: number
  numberAvailable?: number
  numberUnavailable?: number
  collisionCount?: number
  [field: string]: unknown
}

export function toDaemonSet(o: KubeObject): DaemonSet {
  return workingCopy<DaemonSet>(o)
}

export function statusOf(ds: DaemonSet): DaemonSetStatus {
  return asRecord(ds.status) as DaemonSetStatus
}

/** The strategy as upstream's defaulting leaves it (the API server here does not default it). */
export function strategyOf(ds: DaemonSet): 'RollingUpdate' | 'OnDelete' {
  return ds.spec.updateStrategy?.type === 'OnDelete' ? 'OnDelete' : 'RollingUpdate'
}

/** rollingUpdate.maxUnavailable, defaulting to 1. */
export function maxUnavailableOf(ds: DaemonSet): number | string {
  return ds.spec.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1
}

export function historyLimitOf(ds: DaemonSet): number {
  return Math.max(0, intOr(ds.spec.revisionHistoryLimit, 10))
}

export function minReadySecondsOf(ds: DaemonSet): number {
  return Math.max(0, intOr(ds.spec.minReadySeconds, 0))
}
