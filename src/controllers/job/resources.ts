import type { ResourceRef } from '../runtime/types'

/** The batch/v1 resources the Job and CronJob controllers watch and write. */

export const jobs: ResourceRef = Object.freeze({ group: 'batch', version: 'v1', plural: 'jobs' })
export const cronJobs: ResourceRef = Object.freeze({ group: 'batch', version: 'v1', plural: 'cronjobs' })
