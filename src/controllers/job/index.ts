import { jobs, pods } from '../resources'
import type { ControllerDefinition } from '../runtime/types'
import { allJobKeys, jobKeysFor } from './keys'
import { reconcileJob } from './reconcile'
import { wakesOnPodsOf } from '../shared/wakes'
import { podReads } from '../shared/pod-reads'

/**
 * The Job controller: runs a Job's pods to the wanted number of completions, within its backoff
 * limit and deadline, reports their counts and the Complete or Failed condition in status, and
 * deletes finished Jobs whose ttlSecondsAfterFinished has passed. Watches jobs and pods; keys are
 * the Jobs' `namespace/name`.
 */
export function jobController(): ControllerDefinition {
  return {
    name: 'job',
    watches: {
      kinds: [jobs, pods],
      // Of a pod: what the shared pod predicates read, and when its containers finished (podFinishedAt).
      reads: podReads({ status: { containerStatuses: { state: true } } }),
      wakesOn: wakesOnPodsOf('Job'),
      keysFor: jobKeysFor,
      allKeys: allJobKeys,
    },
    reconcile: reconcileJob,
  }
}

export { reconcileJob } from './reconcile'
