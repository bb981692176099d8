import type { KubeObject } from '../../apimachinery/types'
import { newControllerRef } from '../../apimachinery/owner-refs'
import { SCHEDULED_TIMESTAMP_ANNOTATION, type CronJob } from './cronjob'
import { toWall } from '../../apimachinery/cron/zone'

/** getTimeHashInMinutes: the scheduled time in minutes since the epoch, which names the Job. */
export function jobNameFor(cj: CronJob, scheduled: number): string {
  return `${cj.metadata.name ?? ''}-${Math.floor(scheduled / 60_000)}`
}

/** The scheduled time as RFC 3339 with the zone's offset, as Go formats a time in its location. */
export function formatInZone(instant: number, zone: string | undefined): string {
  const offsetMin = Math.round((toWall(instant, zone) - instant) / 60_000)
  const wall = new Date(instant + offsetMin * 60_000).toISOString().slice(0, 19)
  if (offsetMin === 0) return `${wall}Z`
  const abs = Math.abs(offsetMin)
  return `${wall}${offsetMin < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/**
 * getJobFromTemplate2: the Job for one scheduled time, with the template's labels and
 * annotations, the scheduled-timestamp annotation and the CronJob's controller reference.
 */
export function jobFromTemplate(
  cj: CronJob,
  scheduled: number,
  zone: string | undefined,
): KubeObject {
  const meta = cj.spec.jobTemplate?.metadata ?? {}
  const metadata: KubeObject['metadata'] = {
    name: jobNameFor(cj, scheduled),
    namespace: cj.metadata.namespace,
    labels: { ...meta.labels },
    annotations: {
      ...meta.annotations,
      [SCHEDULED_TIMESTAMP_ANNOTATION]: formatInZone(scheduled, zone),
    },
    ownerReferences: [newControllerRef(cj, 'batch/v1', 'CronJob')],
  }
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata,
    spec: structuredClone(cj.spec.jobTemplate?.spec ?? {}),
  }
}
