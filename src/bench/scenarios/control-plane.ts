import { startControlPlane } from '../control-plane'
import { HttpClient } from '../http-client'
import type { BenchOptions } from '../options'
import { configMapJson, objectName } from '../payload'
import { RssSampler } from '../proc-stats'
import { progress } from '../progress'
import { bundleSize, type BundleSize } from '../bundle-size'
import { listAll, type ListResult } from './list'
import { expectStatus, measuredSeries, type SeriesResult } from './series'
import { watchLatency, type WatchResult } from './watch'
import { rbacCreates, type RbacCreates } from './rbac'
import { startBenchWebhook, webhookCreates, type WebhookCreates } from './webhooks'
import { policyCreates, type PolicyCreates } from './admission-policies'
import { podSecurityCreates, type PodSecurityCreates } from './pod-security'
import { createdNames, isBenchObject } from './created-names'

export interface ControlPlaneRep {
  create: SeriesResult
  get: SeriesResult
  list: ListResult
  watch: WatchResult
  /** Peak RSS of the workerd process(es) over the whole repetition, MiB. */
  rssPeakMb?: number
  bundle?: BundleSize
  /** creates as the admin and as a service account bound to `edit` */
  rbac?: RbacCreates
  webhook?: WebhookCreates
  /** creates a ValidatingAdmissionPolicy validates, and creates in a namespace it leaves out */
  policy?: PolicyCreates
  /** pod creates as the admin, and as an `edit` service account where Pod Security enforces baseline */
  podSecurity?: PodSecurityCreates
}

const NS = 'bench'
const WARM_NS = 'bench-warm'
const WATCH_NS = 'bench-watch'

/**
 * One repetition against a fresh control plane: creates, single-object GETs over what was created,
 * LIST across all namespaces, then the watch fan-out; workerd's RSS is followed throughout.
 */
export async function controlPlaneRep(
  o: BenchOptions,
  rep: number,
  measureBundle: boolean,
): Promise<ControlPlaneRep> {
  progress(`rep ${rep}: control plane: starting`)
  // The webhook of the admission series is served over https; the Worker trusts its certificate.
  const hook = await startBenchWebhook()
  const cp = await startControlPlane({ NODE_EXTRA_CA_CERTS: hook.caPath })
  // workerd is up once the server answers; looked up once so sampling does not scan /proc each time.
  const servers = cp.workerdPids()
  const rss = new RssSampler(() => servers)
  const client = new HttpClient(cp.url, { ca: cp.ca, token: cp.token, connections: o.concurrency })
  try {
    const bundle = measureBundle ? await bundleSize(cp.stateDir) : undefined
    for (const ns of [NS, WARM_NS, WATCH_NS]) {
      await client.expectOk(
        'POST',
        '/api/v1/namespaces',
        JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
      )
    }
    const create = (ns: string, prefix: string) => async (i: number) => {
      const name = objectName(prefix, i)
      expectStatus(
        await client.request(
          'POST',
          `/api/v1/namespaces/${ns}/configmaps`,
          configMapJson(name, ns),
        ),
        201,
      )
    }
    const series = { concurrency: o.concurrency, timeLimitMs: o.timeLimitMs }

    // Warm-up objects are removed again, so the LIST below sees exactly the measured ones.
    await measuredSeries('create warm-up', [], {
      ...series,
      count: o.warmup,
      request: create(WARM_NS, 'warm'),
    })
    await client.expectOk('DELETE', `/api/v1/namespaces/${WARM_NS}/configmaps`)
    const created = await measuredSeries(`create c=${o.concurrency}`, servers, {
      ...series,
      count: o.objects,
      request: create(NS, 'cm'),
    })

    // Only the objects that were created: a create series cut short by its time bound made fewer.
    const names = await createdNames(
      client,
      `/api/v1/namespaces/${NS}/configmaps`,
      'cm',
      created.ok,
    )
    const get = (i: number) =>
      client
        .request('GET', `/api/v1/namespaces/${NS}/configmaps/${names[i % names.length]}`)
        .then((res) => expectStatus(res, 200))
    await measuredSeries('get warm-up', [], { ...series, count: o.warmup, request: get })
    const got = await measuredSeries(`get c=${o.concurrency}`, servers, {
      ...series,
      count: names.length,
      request: get,
    })

    // The cluster's own ConfigMaps (kube-public/edgeplane-node-settings, each namespace's kube-root-ca.crt) are listed too.
    const all = (
      JSON.parse((await client.expectOk('GET', '/api/v1/configmaps')).body) as {
        items: { metadata: { namespace: string; name: string } }[]
      }
    ).items
    const own = all.filter(
      (i) => i.metadata.namespace !== NS || !isBenchObject(i.metadata.name, 'cm'),
    ).length
    const list = await listAll(client, '/api/v1/configmaps', o.listCalls, names.length + own)
    const watch = await watchLatency(client, {
      url: cp.url,
      ca: cp.ca,
      token: cp.token,
      namespace: WATCH_NS,
      watchers: o.watchers,
      writes: o.watchWrites,
      timeLimitMs: o.timeLimitMs,
    })
    const rbac = await rbacCreates(o, client, { url: cp.url, ca: cp.ca }, servers)
    const webhook = await webhookCreates(o, client, hook, servers)
    const policy = await policyCreates(o, client, servers)
    const podSecurity = await podSecurityCreates(o, client, { url: cp.url, ca: cp.ca }, servers)
    const rssPeakMb = rss.stop()
    if (rssPeakMb !== undefined) progress(`  workerd peak RSS ${rssPeakMb.toFixed(0)} MiB`)
    return {
      create: created,
      get: got,
      list,
      watch,
      rssPeakMb,
      bundle,
      rbac,
      webhook,
      policy,
      podSecurity,
    }
  } finally {
    rss.stop()
    client.close()
    await cp.stop()
    await hook.close()
  }
}
