import { describe, expect, it } from 'vitest'
import { api } from './helpers'
import { runner } from './controller-runner'

async function create(path: string, body: unknown) {
  const res = await api('POST', path, body)
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.json)}`)
  return res.json
}

describe("controllers' events pass the spam filter", () => {
  it("an autoscaler warning every 15 s stops being written once its burst of 25 is spent", async () => {
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'spam' } })
    const labels = { app: 'web' }
    await create('/apis/apps/v1/namespaces/spam/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'main', image: 'busybox' }] } } },
    })
    await create('/apis/autoscaling/v2/namespaces/spam/horizontalpodautoscalers', {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3 },
    })
    // 30 syncs, 15 s apart: each warns twice (the metric, and the replica computation).
    const hpaController = runner('horizontal-pod-autoscaler')
    const t0 = Date.now()
    const syncs = 30
    for (let i = 0; i < syncs; i++) await hpaController.pass(() => t0 + i * 15_000)

    const events = (await api('GET', '/api/v1/namespaces/spam/events?fieldSelector=involvedObject.kind%3DHorizontalPodAutoscaler')).json.items
    const warnings = events.filter((e: any) => e.type === 'Warning')
    expect(warnings.map((e: any) => e.reason).sort()).toEqual(['FailedComputeMetricsReplicas', 'FailedGetResourceMetric'])
    // Both share one bucket of 25, refilled a twentieth of a token every 15 s: the 13 first syncs
    // spend it, the next write is 5 minutes in (the 21st sync), and none is written after it.
    const lastWritten = Math.max(...warnings.map((e: any) => Date.parse(e.lastTimestamp)))
    expect(lastWritten).toBeGreaterThan(t0 + 300_000 - 1000)
    expect(lastWritten).toBeLessThanOrEqual(t0 + 300_000)
    // The written counts are all the occurrences up to the last write, as upstream's correlator counts.
    const counts = warnings.map((e: any) => e.count)
    expect(counts.reduce((a: number, b: number) => a + b, 0)).toBeLessThan(2 * syncs)
    expect(Math.min(...counts)).toBeGreaterThan(10)
  })
})
