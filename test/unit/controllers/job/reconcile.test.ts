import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { jobController as declaredJobController } from '../../../../src/controllers/job'
import { jobs, pods } from '../../../../src/controllers/resources'
import { MemoryCache, T0 } from '../../../fixtures/memory-cache'
import type { ControllerDefinition } from '../../../../src/controllers/runtime/types'
import { formatTime } from '../../../../src/apimachinery/meta-time'
import { withProjections } from '../../../fixtures/projected'
import { changePerPass } from '../../../fixtures/burst'

/** The controller as its host runs it, reading only the fields its projection keeps. */
const jobController = (...args: Parameters<typeof declaredJobController>) =>
  withProjections(declaredJobController(...args))

type Json = Record<string, any>

function newJob(spec: Json, status: Json = {}): KubeObject {
  const uid = 'uid-job'
  // As the Job strategy labels a template on create: the selector's label and the legacy ones.
  const labels = {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': 'pi',
    'controller-uid': uid,
    'job-name': 'pi',
  }
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: 'pi',
      namespace: 'default',
      uid,
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: formatTime(T0),
    },
    spec: {
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
      template: {
        metadata: { labels },
        spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] },
      },
      ...spec,
    },
    status,
  }
}

function setup(spec: Json, status: Json = {}) {
  const cache = new MemoryCache()
  cache.write(jobs, newJob(spec, status))
  const def = jobController()
  return { cache, def }
}

/** One reconcile of the Job, as the runner makes it (with the controller's memory), with its actions applied to the cache. */
async function pass(def: ControllerDefinition, cache: MemoryCache, now: number) {
  cache.now = now
  const out = cache.reconcile(def, 'default/pi', now)
  await cache.applyAll(out.actions)
  return out
}

const job = (cache: MemoryCache) => cache.get(jobs, 'default', 'pi') as KubeObject & Json
const jobPods = (cache: MemoryCache) => cache.list(pods, 'default')
const live = (cache: MemoryCache) =>
  jobPods(cache).filter((p) => !['Succeeded', 'Failed'].includes((p.status as Json).phase))
const conditionTypes = (cache: MemoryCache) =>
  (job(cache).status.conditions ?? [])
    .filter((c: Json) => c.status === 'True')
    .map((c: Json) => c.type)

function finish(cache: MemoryCache, pod: KubeObject, phase: 'Succeeded' | 'Failed', at: number) {
  const exitCode = phase === 'Succeeded' ? 0 : 1
  cache.write(pods, {
    ...pod,
    status: {
      phase,
      containerStatuses: [
        { name: 'main', state: { terminated: { exitCode, finishedAt: formatTime(at) } } },
      ],
    },
  })
}

describe('job accounting', () => {
  it('runs completions 3 with parallelism 2 to Complete', async () => {
    const { cache, def } = setup({ completions: 3, parallelism: 2 })
    const steps: [number, number, number][] = []
    let now = T0
    for (let i = 0; i < 5 && !conditionTypes(cache).includes('Complete'); i++) {
      await pass(def, cache, now)
      const s = job(cache).status
      steps.push([s.active ?? 0, s.succeeded ?? 0, live(cache).length])
      now += 1000
      for (const p of live(cache)) finish(cache, p, 'Succeeded', now)
      now += 1000
    }
    // active, succeeded, live pods after each pass
    expect(steps).toEqual([
      [2, 0, 2],
      [1, 2, 1],
      [0, 3, 0],
    ])
    const s = job(cache).status
    expect(conditionTypes(cache)).toEqual(['SuccessCriteriaMet', 'Complete'])
    expect(s.completionTime).toBe(formatTime(T0 + 4000))
    expect(s.startTime).toBe(formatTime(T0))
    expect(s.uncountedTerminatedPods).toEqual({})
    expect(jobPods(cache)).toHaveLength(3)
    for (const p of jobPods(cache)) {
      expect(p.metadata.ownerReferences).toEqual([
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          name: 'pi',
          uid: 'uid-job',
          controller: true,
          blockOwnerDeletion: true,
        },
      ])
      expect(p.metadata.labels?.['batch.kubernetes.io/controller-uid']).toBe('uid-job')
      expect(p.metadata.generateName).toBe('pi-')
    }
    const reasons = cache.events.map((e) => e.reason)
    expect(reasons.filter((r) => r === 'SuccessfulCreate')).toHaveLength(3)
    expect(reasons).toContain('Completed')
  })

  it('without completions, finishes once a pod succeeded and none is left running', async () => {
    const { cache, def } = setup({ parallelism: 2 })
    await pass(def, cache, T0)
    const [a, b] = live(cache)
    finish(cache, a!, 'Succeeded', T0 + 1000)
    await pass(def, cache, T0 + 2000)
    expect(live(cache)).toHaveLength(1)
    expect(conditionTypes(cache)).toEqual([])
    finish(cache, b!, 'Succeeded', T0 + 3000)
    await pass(def, cache, T0 + 4000)
    expect(conditionTypes(cache)).toEqual(['SuccessCriteriaMet', 'Complete'])
  })

  it('retries failed pods after a backoff and fails past backoffLimit', async () => {
    const { cache, def } = setup({ backoffLimit: 1 })
    await pass(def, cache, T0)
    finish(cache, live(cache)[0]!, 'Failed', T0 + 1000)
    const held = await pass(def, cache, T0 + 2000)
    expect(live(cache)).toHaveLength(0)
    expect(held.requeueAfterMs).toBe(9000)
    expect(job(cache).status.failed).toBe(1)
    await pass(def, cache, T0 + 11_000)
    expect(live(cache)).toHaveLength(1)
    finish(cache, live(cache)[0]!, 'Failed', T0 + 12_000)
    await pass(def, cache, T0 + 13_000)
    expect(conditionTypes(cache)).toEqual(['FailureTarget', 'Failed'])
    const failed = job(cache).status.conditions.find((c: Json) => c.type === 'Failed')
    expect(failed.reason).toBe('BackoffLimitExceeded')
    expect(job(cache).status.failed).toBe(2)
    expect(job(cache).status.completionTime).toBeUndefined()
    expect(
      cache.events.some((e) => e.reason === 'BackoffLimitExceeded' && e.eventType === 'Warning'),
    ).toBe(true)
  })

  it('deletes the running pods of a Job past backoffLimit before marking it Failed', async () => {
    const { cache, def } = setup({ backoffLimit: 0, parallelism: 2, completions: 2 })
    await pass(def, cache, T0)
    for (const p of live(cache))
      cache.write(pods, {
        ...p,
        spec: { ...(p.spec as Json), nodeName: 'n1' },
        status: { phase: 'Running' },
      })
    finish(cache, live(cache)[0]!, 'Failed', T0 + 1000)
    await pass(def, cache, T0 + 2000)
    expect(conditionTypes(cache)).toEqual(['FailureTarget'])
    expect(job(cache).status.terminating).toBe(1)
    for (const p of jobPods(cache))
      if (p.metadata.deletionTimestamp) cache.remove(pods, 'default', p.metadata.name!)
    await pass(def, cache, T0 + 3000)
    expect(conditionTypes(cache)).toEqual(['FailureTarget', 'Failed'])
  })

  it('fails a Job active past activeDeadlineSeconds, coming back at the deadline', async () => {
    const { cache, def } = setup({ activeDeadlineSeconds: 30 })
    expect((await pass(def, cache, T0)).requeueAfterMs).toBe(30_000)
    expect((await pass(def, cache, T0 + 10_000)).requeueAfterMs).toBe(20_000)
    await pass(def, cache, T0 + 30_000)
    // the running pod is deleted first; the pass its deletion triggers marks the Job Failed
    expect(conditionTypes(cache)).toEqual(['FailureTarget'])
    expect(jobPods(cache)).toHaveLength(0)
    await pass(def, cache, T0 + 31_000)
    expect(conditionTypes(cache)).toEqual(['FailureTarget', 'Failed'])
    expect(job(cache).status.conditions.find((c: Json) => c.type === 'Failed').reason).toBe(
      'DeadlineExceeded',
    )
    expect(jobPods(cache)).toHaveLength(0)
  })

  it.each([
    {
      name: 'before the TTL it comes back at expiry',
      now: T0 + 40_000,
      requeue: 60_000,
      deleted: false,
    },
    {
      name: 'at the TTL it deletes the Job in the background',
      now: T0 + 100_000,
      requeue: undefined,
      deleted: true,
    },
  ])('ttlSecondsAfterFinished: $name', ({ now, requeue, deleted }) => {
    const complete = { type: 'Complete', status: 'True', lastTransitionTime: formatTime(T0) }
    const { cache, def } = setup(
      { ttlSecondsAfterFinished: 100 },
      { conditions: [complete], completionTime: formatTime(T0), succeeded: 1 },
    )
    const out = def.reconcile('default/pi', cache, now)
    expect(out.requeueAfterMs).toBe(requeue)
    if (deleted)
      expect(out.actions).toEqual([
        {
          type: 'delete',
          resource: jobs,
          namespace: 'default',
          name: 'pi',
          preconditions: { uid: 'uid-job' },
          propagationPolicy: 'Background',
        },
      ])
    else expect(out.actions).toEqual([])
  })

  it('suspends by deleting active pods and resumes with a new startTime', async () => {
    const { cache, def } = setup({ parallelism: 2, completions: 4 })
    await pass(def, cache, T0)
    const edit = (suspend: boolean) =>
      cache.write(jobs, { ...job(cache), spec: { ...job(cache).spec, suspend } })
    edit(true)
    await pass(def, cache, T0 + 1000)
    expect(live(cache)).toHaveLength(0)
    expect(conditionTypes(cache)).toEqual(['Suspended'])
    edit(false)
    await pass(def, cache, T0 + 5000)
    expect(live(cache)).toHaveLength(2)
    expect(job(cache).status.startTime).toBe(formatTime(T0 + 5000))
    expect(job(cache).status.conditions.find((c: Json) => c.type === 'Suspended')).toMatchObject({
      status: 'False',
      reason: 'JobResumed',
    })
  })

  it('runs an Indexed Job one pod per index and reports completedIndexes', async () => {
    const { cache, def } = setup({ completions: 3, parallelism: 3, completionMode: 'Indexed' })
    await pass(def, cache, T0)
    const indexes = live(cache)
      .map((p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'])
      .sort()
    expect(indexes).toEqual(['0', '1', '2'])
    const one = live(cache).find(
      (p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] === '1',
    )!
    expect((one.spec as Json).hostname).toBe('pi-1')
    finish(cache, one, 'Succeeded', T0 + 1000)
    await pass(def, cache, T0 + 2000)
    expect(job(cache).status.completedIndexes).toBe('1')
    for (const p of live(cache)) finish(cache, p, 'Succeeded', T0 + 3000)
    await pass(def, cache, T0 + 4000)
    expect(job(cache).status.completedIndexes).toBe('0-2')
    expect(conditionTypes(cache)).toContain('Complete')
  })
})

describe('job burst: at most 100 pod creates or deletes per pass', () => {
  const notDeleted = (cache: MemoryCache) => () =>
    jobPods(cache).filter((p) => !p.metadata.deletionTimestamp).length

  it.each(['NonIndexed', 'Indexed'])(
    'creates a parallelism of 250 100 a pass, asking to be taken again at once: %s',
    async (completionMode) => {
      const { cache } = setup({ parallelism: 250, completions: 250, completionMode })
      const { requeueAfterMs, perPass } = await changePerPass(
        cache,
        jobController,
        T0,
        notDeleted(cache),
      )
      expect(requeueAfterMs).toBe(0)
      expect(perPass.slice(0, 3)).toEqual([100, 100, 50])
      expect(job(cache).status.active).toBe(250)
      if (completionMode === 'Indexed') {
        const indexes = jobPods(cache).map(
          (p) => p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'],
        )
        expect(new Set(indexes).size).toBe(250)
      }
    },
  )

  it('deletes the 250 active pods of a suspended Job 100 a pass', async () => {
    const { cache } = setup({ parallelism: 250, completions: 250 })
    await changePerPass(cache, jobController, T0, notDeleted(cache))
    const suspended = structuredClone(job(cache))
    suspended.spec.suspend = true
    cache.write(jobs, suspended)
    const { requeueAfterMs, perPass } = await changePerPass(
      cache,
      jobController,
      T0 + 60_000,
      notDeleted(cache),
    )
    expect(requeueAfterMs).toBe(0)
    expect(perPass.slice(0, 3)).toEqual([-100, -100, -50])
    expect(notDeleted(cache)()).toBe(0)
  })
})
