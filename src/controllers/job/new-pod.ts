import type { KubeObject } from '../../apimachinery/types'
import { newControllerRef } from '../../apimachinery/owner-refs'
import { podFromTemplate } from '../shared/pod-template'
import { JOB_API_VERSION, type Job } from './job'
import { COMPLETION_INDEX_ANNOTATION } from './pods'
import { asRecord, type Json } from '../../apimachinery/json-value'

/** A pod from the Job's template, controlled by the Job (named `<job>-<random>` by the store). */
export function newJobPod(job: Job): KubeObject {
  return podFromTemplate(job.spec.template, job, newControllerRef(job, JOB_API_VERSION, 'Job'))
}

/**
 * An Indexed Job's pod for one completion index: the index in an annotation, a label and the
 * JOB_COMPLETION_INDEX variable, and a stable hostname `<job>-<index>`, as upstream sets them.
 */
export function newIndexedJobPod(job: Job, index: number): KubeObject {
  const pod = newJobPod(job)
  const name = job.metadata.name ?? ''
  pod.metadata.generateName = `${name}-${index}-`
  pod.metadata.annotations = {
    ...pod.metadata.annotations,
    [COMPLETION_INDEX_ANNOTATION]: String(index),
  }
  pod.metadata.labels = { ...pod.metadata.labels, [COMPLETION_INDEX_ANNOTATION]: String(index) }
  const spec = asRecord(pod.spec)
  spec.hostname ??= `${name}-${index}`
  for (const list of ['initContainers', 'containers']) {
    const containers = spec[list]
    if (!Array.isArray(containers)) continue
    for (const c of containers as Json[]) {
      const env = Array.isArray(c.env) ? (c.env as Json[]) : []
      c.env = [
        {
          name: 'JOB_COMPLETION_INDEX',
          valueFrom: {
            fieldRef: { fieldPath: `metadata.annotations['${COMPLETION_INDEX_ANNOTATION}']` },
          },
        },
        ...env,
      ]
    }
  }
  return pod
}
