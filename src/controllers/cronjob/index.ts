import type { ControllerDefinition } from '../runtime/types'
import { allCronJobKeys, cronJobKeysFor } from './keys'
import { reconcileCronJob } from './reconcile'
import { cronJobs, jobs } from '../resources'

/**
 * The CronJob controller: creates a Job for each activation of a CronJob's schedule (in its time
 * zone), honouring its concurrency policy, starting deadline and suspension, keeps its history of
 * finished Jobs to the limits, and reports active Jobs and the last schedule and success times.
 * Watches cronjobs and jobs; keys are the CronJobs' `namespace/name`.
 */
export function cronJobController(): ControllerDefinition {
  return {
    name: 'cronjob',
    watches: {
      kinds: [cronJobs, jobs],
      keysFor: cronJobKeysFor,
      allKeys: allCronJobKeys,
    },
    reconcile: reconcileCronJob,
  }
}

export { reconcileCronJob } from './reconcile'
export { parseCron } from '../../apimachinery/cron/parse'
export { nextAfter } from '../../apimachinery/cron/next'
