import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../src/apimachinery/types'
import { formatTime } from '../../src/apimachinery/meta-time'
import { jobController } from '../../src/controllers/job'
import { jobs, pods } from '../../src/controllers/resources'
import { MemoryCache, runPass, settle, T0 } from '../fixtures/memory-cache'

function newJob(spec: Record<string, unknown>): KubeObject {
  const uid = 'uid-job'
  const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'work', 'controller-uid': uid, 'job-name': 'work' }
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'work', namespace: 'default', uid, resourceVersion: '1', generation: 1, creationTimestamp: formatTime(T0) },
    spec: {
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
      template: { metadata: { labels }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } },
      ...spec,
    },
    status: {},
  }
}

const live = (cache: MemoryCache) => cache.list(pods, 'default').filter((p) => !p.metadata.deletionTimestamp).length
const activeOf = (cache: MemoryCache) => (cache.get(jobs, 'default', 'work')!.status as { active?: number }).active

describe('job burst: at most 100 pod creates or deletes per pass', () => {
  it.each([
    { name: 'NonIndexed', mode: 'NonIndexed' },
    { name: 'Indexed', mode: 'Indexed' },
  ])('creates a parallelism of 250 100 a pass, asking to be taken again at once: $name', async ({ mode }) => {
    const cache = new MemoryCache()
    cache.write(jobs, newJob({ parallelism: 250, completions: 250, completionMode: mode }))

    const first = await runPass(jobController(), cache, T0)
    expect(live(cache)).toBe(100)
    expect(activeOf(cache)).toBe(100)
    expect(first.requeueAfterMs).toBe(0)

    const perPass: number[] = [100]
    let before = 100
    await settle(cache, [jobController()], T0 + 1000, {
      kubelet: false,
      onStep: () => {
        perPass.push(live(cache) - before)
        before = live(cache)
      },
    })
    expect(live(cache)).toBe(250)
    expect(activeOf(cache)).toBe(250)
    expect(perPass.slice(0, 3)).toEqual([100, 100, 50])
    if (mode === 'Indexed') {
      const indexes = cache.list(pods, 'default').map((p) => Number(p.metadata.annotations?.['batch.kubernetes.io/job-completion-index']))
      expect(new Set(indexes).size).toBe(250)
    }
  })

  it('deletes 250 active pods of a suspended Job 100 a pass', async () => {
    const cache = new MemoryCache()
    cache.write(jobs, newJob({ parallelism: 250, completions: 250 }))
    await settle(cache, [jobController()], T0, { kubelet: false })
    expect(live(cache)).toBe(250)

    const job = structuredClone(cache.get(jobs, 'default', 'work')!)
    ;(job.spec as Record<string, unknown>).suspend = true
    cache.write(jobs, job)
    const first = await runPass(jobController(), cache, T0 + 60_000)
    expect(live(cache)).toBe(150)
    expect(first.requeueAfterMs).toBe(0)
    await settle(cache, [jobController()], T0 + 61_000, { kubelet: false })
    expect(live(cache)).toBe(0)
  })
})
