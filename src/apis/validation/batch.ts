import { type FieldCause, invalid, notSupported, required } from '../../apimachinery/field-errors'
import { type JobSpec, cronJobSpec, jobSpec, objectMeta, read } from './shapes'
import type { KubeObject } from '../../apimachinery/types'
import {
  goLabelSelector,
  selectorMismatch,
  toSelector,
  validateMetaLabelSelector,
} from './selectors'
import { matchesLabels } from '../../apimachinery/labels'
import { validatePodTemplateSpec } from './pod-spec'
import { goQuote, goStringMap } from '../../apimachinery/go-format'
import { validateNonnegative } from '../../apimachinery/field-formats'

/** Job and CronJob (pkg/apis/batch/validation). */

export const jobRestartPolicies = ['OnFailure', 'Never']

// validateJobSpec upstream: what Jobs and CronJob job templates share.
export function validateJobSpecCommon(spec: JobSpec, path: string): FieldCause[] {
  const causes: FieldCause[] = []
  for (const f of [
    'parallelism',
    'completions',
    'activeDeadlineSeconds',
    'backoffLimit',
    'ttlSecondsAfterFinished',
  ] as const) {
    const v = spec[f]
    if (v !== undefined) causes.push(...validateNonnegative(v, `${path}.${f}`))
  }
  if (spec.completionMode !== undefined) {
    if (spec.completionMode !== 'NonIndexed' && spec.completionMode !== 'Indexed') {
      causes.push(
        notSupported(`${path}.completionMode`, spec.completionMode, ['NonIndexed', 'Indexed']),
      )
    }
    if (spec.completionMode === 'Indexed' && spec.completions === undefined) {
      causes.push(required(`${path}.completions`, 'when completion mode is Indexed'))
    }
  }
  causes.push(...validatePodTemplateSpec(spec.template, `${path}.template`))
  // A pod template defaults to Always, which a Job cannot use, so a missing policy is reported as required.
  const policy = spec.template?.spec?.restartPolicy ?? ''
  if (policy === 'Always' || policy === '') {
    causes.push(
      required(
        `${path}.template.spec.restartPolicy`,
        `valid values: ${jobRestartPolicies.map(goQuote).join(', ')}`,
      ),
    )
  } else if (!jobRestartPolicies.includes(policy)) {
    causes.push(notSupported(`${path}.template.spec.restartPolicy`, policy, jobRestartPolicies))
  }
  return causes
}

// Selector-generated Jobs must carry the generated labels and a selector on the controller uid.
export function validateGeneratedSelector(obj: KubeObject, spec: JobSpec): FieldCause[] {
  if (spec.manualSelector === true || !spec.selector) return []
  const meta = read(objectMeta, obj.metadata)
  const uid = meta.uid ?? ''
  const name = meta.name ?? ''
  const causes: FieldCause[] = []
  if (!uid) causes.push(required('metadata.uid'))
  const labels = spec.template?.metadata?.labels ?? undefined
  const expected: [string, string][] = [
    ['controller-uid', uid],
    ['job-name', name],
    ['batch.kubernetes.io/controller-uid', uid],
    ['batch.kubernetes.io/job-name', name],
  ]
  for (const [key, want] of expected) {
    const path = `spec.template.metadata.labels[${key}]`
    if (!labels || !Object.prototype.hasOwnProperty.call(labels, key))
      causes.push(required(path, `must be '${want}'`))
    else if (labels[key] !== want)
      causes.push(invalid(path, labels, `must be '${want}'`, goStringMap(labels)))
  }
  const sel = toSelector(spec.selector)
  if (sel && !matchesLabels(sel, Object.fromEntries(expected))) {
    causes.push(
      invalid(
        'spec.selector',
        spec.selector,
        '`selector` not auto-generated',
        goLabelSelector(spec.selector),
      ),
    )
  }
  return causes
}

/**
 * Jobs are validated after the server generated their selector (unless spec.manualSelector), as
 * upstream does: without one, spec.selector is reported as required.
 */
export function validateJob(obj: KubeObject): FieldCause[] {
  const spec = read(jobSpec, obj.spec)
  const causes = validateGeneratedSelector(obj, spec)
  causes.push(...validateJobSpecCommon(spec, 'spec'))
  if (!spec.selector) causes.push(required('spec.selector'))
  else causes.push(...validateMetaLabelSelector(spec.selector, 'spec.selector'))
  const sel = toSelector(spec.selector)
  if (sel && !matchesLabels(sel, spec.template?.metadata?.labels))
    causes.push(selectorMismatch(spec.template, 'spec.template'))
  return causes
}

export function validateCronJob(obj: KubeObject): FieldCause[] {
  const spec = read(cronJobSpec, obj.spec)
  const causes: FieldCause[] = []
  if (!spec.schedule) causes.push(required('spec.schedule'))
  if (spec.startingDeadlineSeconds !== undefined)
    causes.push(
      ...validateNonnegative(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'),
    )
  const concurrency = spec.concurrencyPolicy || 'Allow'
  if (!['Allow', 'Forbid', 'Replace'].includes(concurrency)) {
    causes.push(notSupported('spec.concurrencyPolicy', concurrency, ['Allow', 'Forbid', 'Replace']))
  }
  const job = read(jobSpec, spec.jobTemplate?.spec)
  causes.push(...validateJobSpecCommon(job, 'spec.jobTemplate.spec'))
  if (job.selector) {
    causes.push(
      invalid(
        'spec.jobTemplate.spec.selector',
        job.selector,
        '`selector` will be auto-generated',
        goLabelSelector(job.selector),
      ),
    )
  }
  if (job.manualSelector === true)
    causes.push(notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']))
  for (const f of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit'] as const) {
    const v = spec[f]
    if (v !== undefined) causes.push(...validateNonnegative(v, `spec.${f}`))
  }
  // Jobs are named `<cronjob>-<11 characters>` and must stay DNS labels.
  const name = read(objectMeta, obj.metadata).name ?? ''
  if (name.length > 52)
    causes.push(invalid('metadata.name', name, 'must be no more than 52 characters'))
  return causes
}
