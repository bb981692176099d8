/** batch/v1 defaulting, as upstream's Job strategy on create and SetDefaults_Job and _CronJob. */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'

/**
 * As the Job strategy on create: unless `manualSelector` is set, the Job selects its pods by its
 * own uid, and the template carries the matching labels.
 */
export function defaultJobSelector(obj: KubeObject): void {
  const spec = asRecord(obj.spec)
  const uid = obj.metadata.uid
  if (!obj.spec || spec.manualSelector === true || spec.selector || !uid) return
  const template = asRecord(spec.template)
  const meta = asRecord(template.metadata)
  const name = obj.metadata.name ?? ''
  meta.labels = {
    ...asRecord(meta.labels),
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  }
  template.metadata = meta
  spec.template = template
  spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } }
}

/** batch/v1 Job defaults, as upstream's SetDefaults_Job. */
export function defaultJobSpec(spec: Json): void {
  // A Job with neither completions nor parallelism runs one pod to completion; with parallelism
  // alone it is a work queue and completions stays unset.
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1
  spec.parallelism ??= 1
  spec.backoffLimit ??= 6
  spec.completionMode ??= 'NonIndexed'
  spec.suspend ??= false
  spec.podReplacementPolicy ??= 'TerminatingOrFailed'
}

/** batch/v1 CronJob defaults, as upstream's SetDefaults_CronJob. */
export function defaultCronJobSpec(spec: Json): void {
  spec.concurrencyPolicy ??= 'Allow'
  spec.suspend ??= false
  spec.successfulJobsHistoryLimit ??= 3
  spec.failedJobsHistoryLimit ??= 1
}
