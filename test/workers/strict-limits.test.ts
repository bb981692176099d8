import { describe, expect, it } from 'vitest'
import { env, SELF } from 'cloudflare:test'
import { storeFor } from '../../src/store-client/stores'
import { resourceDefOf } from '../../src/controllers/resources'
import { emptyFigures, InvocationMeter, LimitExceeded, metered } from '../../src/limits/strict'
import { serializedSize } from '../../src/limits/serialized-size'
import { productionLimits } from '../../src/limits/production'
import { api, token, hostOf } from './helpers'
import { podManifest } from '../helpers'

const configMaps = resourceDefOf({ group: '', version: 'v1', plural: 'configmaps' })
const host = hostOf

async function metricsText(): Promise<string> {
  const res = await SELF.fetch('https://edgeplane.test/metrics', {
    headers: { Authorization: `Bearer ${token}` },
  })
  return res.text()
}

const sampleOf = (text: string, prefix: string) => {
  const line = text.split('\n').find((l) => l.startsWith(prefix))
  if (!line) throw new Error(`no ${prefix} in:\n${text}`)
  return Number(line.slice(line.lastIndexOf(' ') + 1))
}

describe('strict-limits mode', () => {
  it('measures what crosses an RPC as the runtime serializes it: its own 32 MiB refusal names the size we count', async () => {
    // Outside a metered invocation the call goes to the runtime, which refuses it with its own count.
    const store = storeFor(env, configMaps)
    for (const text of [
      'x'.repeat(33 * 1024 * 1024),
      'é'.repeat(12 * 1024 * 1024) + 'ĕ'.repeat(5 * 1024 * 1024),
    ]) {
      const args = [text]
      const error = await store.namespaceContent(text).then(
        () => undefined,
        (e: Error) => e,
      )
      const reported = Number(
        /size of this value was: (\d+) bytes/.exec(String(error?.message))?.[1],
      )
      expect(reported).toBeGreaterThan(productionLimits.rpcBytes)
      const counted = serializedSize(args)
      expect(Math.abs(counted - reported) / reported).toBeLessThan(0.001)
    }
  })

  it('fails the subrequest past 1,000 in one invocation, logs it and counts it', async () => {
    const figures = emptyFigures()
    const meter = new InvocationMeter('test', figures)
    const store = storeFor(env, configMaps)
    const run = metered(meter, async () => {
      for (let i = 0; i < productionLimits.subrequests + 1; i++)
        await storeFor(env, configMaps).revision()
    })
    await expect(run).rejects.toBeInstanceOf(LimitExceeded)
    expect(figures.maxSubrequests).toBe(productionLimits.subrequests + 1)
    expect(figures.breaches.subrequests).toBe(1)
    expect(figures.maxRpcBytes).toBeGreaterThan(0)
    // A stub made outside any invocation and called outside one counts against no invocation: the
    // spent meter is not charged (it would refuse the call), and the call is made.
    await expect(store.revision()).resolves.toBeTypeOf('number')
    expect(meter.subrequests).toBe(productionLimits.subrequests + 1)
    expect(figures.breaches.subrequests).toBe(1)
    // The same stub called inside another invocation counts there, once per call.
    const next = new InvocationMeter('next', emptyFigures())
    await metered(next, () => store.revision())
    expect(next.subrequests).toBe(1)
  })

  it('refuses an argument past 32 MiB before sending it', async () => {
    const figures = emptyFigures()
    const run = metered(new InvocationMeter('test', figures), () =>
      storeFor(env, configMaps).namespaceContent('x'.repeat(productionLimits.rpcBytes)),
    )
    await expect(run).rejects.toBeInstanceOf(LimitExceeded)
    expect(figures.breaches.rpcBytes).toBe(1)
    expect(figures.maxRpcBytes).toBeGreaterThan(productionLimits.rpcBytes)
  })

  it("serves the Worker's and each controller's figures on GET /metrics", async () => {
    for (let i = 0; i < 3; i++)
      expect(
        (await api('POST', '/api/v1/namespaces/default/pods', podManifest(`strict-${i}`))).status,
      ).toBe(201)
    await host('replicaset').passNow('replicaset')
    const text = await metricsText()
    expect(
      sampleOf(text, 'edgeplane_strict_max_subrequests_per_invocation{scope="worker"}'),
    ).toBeGreaterThanOrEqual(1)
    expect(sampleOf(text, 'edgeplane_strict_max_rpc_bytes{scope="worker"}')).toBeGreaterThan(0)
    // The ReplicaSet controller caches the pods, in the host it shares: that cache's size and its pass are counted.
    expect(
      sampleOf(
        text,
        'edgeplane_strict_max_cache_bytes{scope="controller",controller="replicaset",host="pods"}',
      ),
    ).toBeGreaterThan(3 * 100)
    expect(
      sampleOf(
        text,
        'edgeplane_strict_max_subrequests_per_invocation{scope="controller",controller="replicaset",host="pods"}',
      ),
    ).toBeGreaterThan(0)
    expect(text).toMatch(
      /^edgeplane_strict_max_pass_cpu_ms\{scope="controller",controller="replicaset",host="pods"\} \d+$/m,
    )
    expect(text).toContain(
      'edgeplane_strict_limit_exceeded_total{scope="worker",limit="subrequests"} 0',
    )
  })
})
