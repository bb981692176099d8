import { PodTemplateSpec } from './core'
import { LabelSelector, ObjectMeta } from './meta'
import { bool, int, intstr, msg, str, type Table } from './schema'

/** apps/v1 and batch/v1 workloads. Status is the server's to write, so only its presence is kept. */

const emptyStatus = () => ({})

const DeploymentSpec: Table = {
  1: int('replicas', { keep: true }),
  2: msg('selector', () => LabelSelector),
  3: msg('template', () => PodTemplateSpec),
  4: msg('strategy', () => ({
    1: str('type'),
    2: msg('rollingUpdate', () => ({ 1: intstr('maxUnavailable'), 2: intstr('maxSurge') })),
  })),
  5: int('minReadySeconds'),
  6: int('revisionHistoryLimit', { keep: true }),
  7: bool('paused'),
  9: int('progressDeadlineSeconds', { keep: true }),
}

export const Deployment: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => DeploymentSpec),
  3: msg('status', emptyStatus),
}

const JobSpec: Table = {
  1: int('parallelism', { keep: true }),
  2: int('completions', { keep: true }),
  3: int('activeDeadlineSeconds', { keep: true }),
  7: int('backoffLimit', { keep: true }),
  12: int('backoffLimitPerIndex', { keep: true }),
  13: int('maxFailedIndexes', { keep: true }),
  4: msg('selector', () => LabelSelector),
  5: bool('manualSelector', { keep: true }),
  6: msg('template', () => PodTemplateSpec),
  8: int('ttlSecondsAfterFinished', { keep: true }),
  9: str('completionMode', { keep: true }),
  10: bool('suspend', { keep: true }),
  14: str('podReplacementPolicy', { keep: true }),
  15: str('managedBy', { keep: true }),
}

export const Job: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => JobSpec),
  3: msg('status', emptyStatus),
}

const CronJobSpec: Table = {
  1: str('schedule', { keep: true }),
  8: str('timeZone', { keep: true }),
  2: int('startingDeadlineSeconds', { keep: true }),
  3: str('concurrencyPolicy'),
  4: bool('suspend', { keep: true }),
  5: msg('jobTemplate', () => ({
    1: msg('metadata', () => ObjectMeta),
    2: msg('spec', () => JobSpec),
  })),
  6: int('successfulJobsHistoryLimit', { keep: true }),
  7: int('failedJobsHistoryLimit', { keep: true }),
}

export const CronJob: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => CronJobSpec),
  3: msg('status', emptyStatus),
}
