import type { HttpClient } from '../http-client'
import type { BenchOptions } from '../options'
import { objectName } from '../payload'
import { combined, editorClient, ROUNDS, type CreateRate } from './rbac'
import { expectStatus, measuredSeries, type SeriesResult } from './series'

/** Pod creates as the admin where Pod Security has nothing to check, and as an `edit` service account where it enforces baseline. */
export interface PodSecurityCreates {
  admin: CreateRate
  enforced: CreateRate
}

const ADMIN_NS = 'bench-pods'
const PSA_NS = 'bench-psa'
/** Creates per side: enough for a steady rate, few enough to keep the run short. */
const MAX_CREATES = 2_000
/** No scheduler serves this name: the pods stay Pending, untouched, so the series measure admission and storage alone. */
const UNSCHEDULED = 'bench-unscheduled'

/** A pod that meets baseline (and so is stored), with a command as a process node would need. */
function podJson(name: string, namespace: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: {
      schedulerName: UNSCHEDULED,
      containers: [
        {
          name: 'app',
          image: 'busybox',
          command: ['sleep', '3600'],
          ports: [{ containerPort: 8080 }],
        },
      ],
    },
  })
}

/**
 * create_rbac_vs_admin's ratio for pods, with Pod Security enforcing `baseline` on the measured
 * side: a service-account token bound to `edit` creates pods in a namespace labelled
 * `pod-security.kubernetes.io/enforce=baseline` (each create reads the namespace's policy and runs
 * every baseline check), against the admin's creates of the same pods in an unlabelled namespace
 * (privileged: nothing checked), in alternating series on one control plane.
 */
export async function podSecurityCreates(
  o: BenchOptions,
  admin: HttpClient,
  target: { url: string; ca: string },
  serverPids: number[],
): Promise<PodSecurityCreates> {
  await admin.expectOk(
    'POST',
    '/api/v1/namespaces',
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ADMIN_NS } }),
  )
  const labels = { 'pod-security.kubernetes.io/enforce': 'baseline' }
  await admin.expectOk(
    'POST',
    '/api/v1/namespaces',
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: PSA_NS, labels } }),
  )
  const sa = await editorClient(o, admin, target, PSA_NS)
  try {
    const count = Math.max(1, Math.floor(Math.min(o.objects, MAX_CREATES) / ROUNDS))
    const series = { concurrency: o.concurrency, timeLimitMs: o.timeLimitMs, count }
    const create = (client: HttpClient, ns: string, offset: number) => async (i: number) => {
      expectStatus(
        await client.request(
          'POST',
          `/api/v1/namespaces/${ns}/pods`,
          podJson(objectName('pod', offset + i), ns),
        ),
        201,
      )
    }
    await measuredSeries('pod create warm-up under Pod Security', [], {
      ...series,
      count: o.warmup,
      request: create(sa, PSA_NS, 0),
    })
    const admins: SeriesResult[] = []
    const enforced: SeriesResult[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const offset = o.warmup + round * count
      admins.push(
        await measuredSeries(
          `pod create as admin c=${o.concurrency} (${round + 1}/${ROUNDS})`,
          serverPids,
          { ...series, request: create(admin, ADMIN_NS, offset) },
        ),
      )
      enforced.push(
        await measuredSeries(
          `pod create as service account, baseline enforced c=${o.concurrency} (${round + 1}/${ROUNDS})`,
          serverPids,
          { ...series, request: create(sa, PSA_NS, offset) },
        ),
      )
    }
    return { admin: combined(admins), enforced: combined(enforced) }
  } finally {
    sa.close()
  }
}
