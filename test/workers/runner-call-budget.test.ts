import { beforeAll, describe, expect, it } from 'vitest'
import { ControllerRunner, defaultRunnerOptions } from '../../src/controllers/runtime/runner'
import type { ControllerDefinition } from '../../src/controllers/runtime/types'
import { api, configMap } from './helpers'
import { countingEnv } from './counting-env'

const ns = 'call-budget'
const total = 30
const configMaps = { group: '', version: 'v1', plural: 'configmaps' }

beforeAll(async () => {
  expect(
    (
      await api('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns },
      })
    ).status,
  ).toBe(201)
  for (let i = 0; i < total; i++)
    expect(
      (await api('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(`cm-${i}`))).status,
    ).toBe(201)
})

/** Labels each ConfigMap of the namespace once, with an event: two writes per key. */
const labeller: ControllerDefinition = {
  name: 'labeller',
  watches: {
    kinds: [configMaps],
    keysFor: () => [],
    allKeys: (cache) => cache.list(configMaps, ns).map((c) => `${ns}/${c.metadata.name}`),
  },
  reconcile: (key, cache) => {
    const cm = cache.get(configMaps, ns, key.split('/')[1]!)
    if (!cm || cm.metadata.labels?.labelled) return { actions: [] }
    return {
      actions: [
        {
          type: 'patch',
          resource: configMaps,
          namespace: ns,
          name: cm.metadata.name!,
          patch: { metadata: { labels: { labelled: 'yes' } } },
        },
        {
          type: 'event',
          involved: cm,
          eventType: 'Normal',
          reason: 'Labelled',
          message: 'labelled',
        },
      ],
    }
  },
}

describe('a pass counts its reads and writes against its budget of store calls', () => {
  it('stops taking keys once its reads and writes reach the budget, and the next pass goes on at once', async () => {
    const { env: counted, calls } = countingEnv()
    const budget = 20
    const runner = new ControllerRunner(counted, labeller, {
      ...defaultRunnerOptions,
      maxCallsPerPass: budget,
    })
    const now = 5_000_000
    const made = () => Object.values(calls).reduce((a, b) => a + b, 0)
    const passes: { reconciled: number; calls: number; made: number }[] = []
    for (let i = 0; i < 6; i++) {
      const before = made()
      const report = await runner.pass(() => now)
      passes.push({ reconciled: report.reconciled, calls: report.calls, made: made() - before })
      if (report.nextAt !== now) break
    }
    // The first pass relists (one page), then takes keys of two calls each until it has made 20:
    // 1 + 2 × 10 = 21. Every later pass reads the change log once and does the same.
    expect(passes[0]).toMatchObject({ reconciled: 10, calls: 21 })
    for (const p of passes) {
      expect(p.calls).toBeLessThan(budget + 2)
      // What the pass made beyond its count: admission re-reading its configurations (webhooks and
      // policies, one list each) when their snapshot is due, which the runner does not count.
      expect(p.made - p.calls).toBeGreaterThanOrEqual(0)
      expect(p.made - p.calls).toBeLessThanOrEqual(4)
    }
    expect(passes.slice(0, 3).map((p) => p.reconciled)).toEqual([10, 10, 10])
    const listed = (
      await api('GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=labelled%3Dyes`)
    ).json.items as unknown[]
    expect(listed).toHaveLength(total)
    const events = (
      await api('GET', `/api/v1/namespaces/${ns}/events?fieldSelector=reason%3DLabelled`)
    ).json.items as unknown[]
    expect(events).toHaveLength(total)
  })
})
