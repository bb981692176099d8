import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { cronJobController } from '../../../../src/controllers/cronjob'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { formatTime } from '../../../../src/apimachinery/meta-time'
import { cronJobs, jobs } from '../../../../src/controllers/resources'

type Json = Record<string, any>

const at = (iso: string) => Date.parse(iso)
const def = cronJobController()

function newCronJob(spec: Json, status: Json = {}): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: {
      name: 'tick',
      namespace: 'default',
      uid: 'uid-tick',
      resourceVersion: '1',
      creationTimestamp: '2025-06-01T11:58:30Z',
    },
    spec: {
      schedule: '*/1 * * * *',
      jobTemplate: {
        metadata: { labels: { app: 'tick' } },
        spec: {
          template: {
            spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] },
          },
        },
      },
      ...spec,
    },
    status,
  }
}

function ownedJob(name: string, condition?: 'Complete' | 'Failed', startTime?: string): KubeObject {
  const status: Json = {}
  if (condition) status.conditions = [{ type: condition, status: 'True' }]
  if (condition === 'Complete') status.completionTime = startTime
  if (startTime) status.startTime = startTime
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: '1',
      creationTimestamp: startTime ?? '2025-06-01T11:59:00Z',
      annotations: {
        'batch.kubernetes.io/cronjob-scheduled-timestamp': startTime ?? '2025-06-01T11:59:00Z',
      },
      ownerReferences: [
        {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          name: 'tick',
          uid: 'uid-tick',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {},
    status,
  }
}

function setup(spec: Json, status: Json = {}, ...owned: KubeObject[]) {
  const cache = new MemoryCache()
  cache.write(cronJobs, newCronJob(spec, status))
  for (const j of owned) cache.write(jobs, j)
  return cache
}

async function pass(cache: MemoryCache, now: number) {
  cache.now = now
  const out = def.reconcile('default/tick', cache, now)
  await cache.applyAll(out.actions)
  return out
}

const cronJob = (cache: MemoryCache) => cache.get(cronJobs, 'default', 'tick') as Json
const jobNames = (cache: MemoryCache) =>
  cache
    .list(jobs, 'default')
    .map((j) => j.metadata.name)
    .sort()
const minutes = (iso: string) => Math.floor(at(iso) / 60_000)

describe('cronjob reconcile', () => {
  it('creates the Job for the due minute, named by it, and comes back at the next one', async () => {
    const cache = setup({})
    const out = await pass(cache, at('2025-06-01T12:00:10Z'))
    const name = `tick-${minutes('2025-06-01T12:00:00Z')}`
    expect(jobNames(cache)).toEqual([name])
    const job = cache.get(jobs, 'default', name)!
    expect(job.metadata.annotations).toEqual({
      'batch.kubernetes.io/cronjob-scheduled-timestamp': '2025-06-01T12:00:00Z',
    })
    expect(job.metadata.labels).toEqual({ app: 'tick' })
    expect(job.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'CronJob',
      uid: 'uid-tick',
      controller: true,
      blockOwnerDeletion: true,
    })
    expect(cronJob(cache).status.lastScheduleTime).toBe('2025-06-01T12:00:00Z')
    expect(out.requeueAfterMs).toBe(50_100)
    expect(cache.events.map((e) => e.reason)).toEqual(['SuccessfulCreate'])
    // the next pass lists the new Job as active and creates nothing more
    await pass(cache, at('2025-06-01T12:00:20Z'))
    expect(cronJob(cache).status.active).toEqual([
      {
        kind: 'Job',
        namespace: 'default',
        name,
        uid: job.metadata.uid,
        apiVersion: 'batch/v1',
        resourceVersion: job.metadata.resourceVersion,
      },
    ])
    expect(jobNames(cache)).toEqual([name])
  })

  it('formats the scheduled timestamp in the CronJob time zone', async () => {
    const cache = setup(
      { schedule: '0 9 * * *', timeZone: 'Europe/Berlin' },
      { lastScheduleTime: '2025-05-31T07:00:00Z' },
    )
    await pass(cache, at('2025-06-01T07:00:05Z'))
    const job = cache.list(jobs)[0]!
    expect(job.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(
      '2025-06-01T09:00:00+02:00',
    )
  })

  it.each([
    { policy: 'Allow', jobs: 2, reason: 'SuccessfulCreate' },
    { policy: 'Forbid', jobs: 1, reason: 'JobAlreadyActive' },
    { policy: 'Replace', jobs: 1, reason: 'SuccessfulDelete' },
  ])(
    'concurrencyPolicy $policy with a Job still running',
    async ({ policy, jobs: count, reason }) => {
      const running = ownedJob('tick-old')
      const ref = {
        kind: 'Job',
        namespace: 'default',
        name: 'tick-old',
        uid: 'uid-tick-old',
        apiVersion: 'batch/v1',
      }
      const cache = setup(
        { concurrencyPolicy: policy },
        { active: [ref], lastScheduleTime: '2025-06-01T11:59:00Z' },
        running,
      )
      await pass(cache, at('2025-06-01T12:00:01Z'))
      expect(jobNames(cache)).toHaveLength(count)
      expect(cache.events.map((e) => e.reason)).toContain(reason)
      if (policy === 'Replace')
        expect(jobNames(cache)).toEqual([`tick-${minutes('2025-06-01T12:00:00Z')}`])
    },
  )

  it('does not start a Job past startingDeadlineSeconds, waiting for the next activation', async () => {
    // As upstream, only activations within the deadline are looked for, so the 12:00 one is not due.
    const cache = setup(
      { schedule: '0 * * * *', startingDeadlineSeconds: 10 },
      { lastScheduleTime: '2025-06-01T11:00:00Z' },
    )
    const out = await pass(cache, at('2025-06-01T12:00:30Z'))
    expect(jobNames(cache)).toEqual([])
    expect(out.requeueAfterMs).toBe(3570_100)
    await pass(cache, at('2025-06-01T12:00:05Z'))
    expect(jobNames(cache)).toHaveLength(1)
  })

  it('warns about too many missed start times and starts the most recent', async () => {
    const cache = setup({})
    await pass(cache, at('2025-06-01T14:00:30Z'))
    expect(cache.events.map((e) => e.reason)).toEqual(['TooManyMissedTimes', 'SuccessfulCreate'])
    expect(jobNames(cache)).toEqual([`tick-${minutes('2025-06-01T14:00:00Z')}`])
  })

  it('does nothing while suspended', async () => {
    const cache = setup({ suspend: true })
    const out = await pass(cache, at('2025-06-01T12:00:10Z'))
    expect(jobNames(cache)).toEqual([])
    expect(out.requeueAfterMs).toBeUndefined()
  })

  it('drops finished Jobs from active, records the last success, and keeps the history limits', async () => {
    const finished = [1, 2, 3, 4].map((i) =>
      ownedJob(`tick-ok-${i}`, 'Complete', formatTime(at('2025-06-01T11:00:00Z') + i * 60_000)),
    )
    const failed = [1, 2].map((i) =>
      ownedJob(`tick-bad-${i}`, 'Failed', formatTime(at('2025-06-01T11:00:00Z') + i * 60_000)),
    )
    const ref = {
      kind: 'Job',
      namespace: 'default',
      name: 'tick-ok-4',
      uid: 'uid-tick-ok-4',
      apiVersion: 'batch/v1',
    }
    const cache = setup(
      { suspend: true, successfulJobsHistoryLimit: 2 },
      { active: [ref] },
      ...finished,
      ...failed,
    )
    await pass(cache, at('2025-06-01T12:00:10Z'))
    expect(jobNames(cache)).toEqual(['tick-bad-2', 'tick-ok-3', 'tick-ok-4'])
    const status = cronJob(cache).status
    expect(status.active).toBeUndefined()
    expect(status.lastSuccessfulTime).toBe(formatTime(at('2025-06-01T11:04:00Z')))
    expect(cache.events.map((e) => e.reason)).toEqual([
      'SawCompletedJob',
      'SuccessfulDelete',
      'SuccessfulDelete',
      'SuccessfulDelete',
    ])
  })

  it('reports an unparseable schedule', async () => {
    const cache = setup({ schedule: '61 * * * *' })
    await pass(cache, at('2025-06-01T12:00:10Z'))
    expect(cache.events).toMatchObject([{ eventType: 'Warning', reason: 'UnparseableSchedule' }])
  })
})
