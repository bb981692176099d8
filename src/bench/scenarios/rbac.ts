import { HttpClient } from '../http-client'
import type { BenchOptions } from '../options'
import { configMapJson, objectName } from '../payload'
import { expectStatus, measuredSeries, type SeriesResult } from './series'

/** Creates as the admin (system:masters, no RBAC lookup) and as a service account bound to `edit`. */
export interface RbacCreates {
  admin: CreateRate
  serviceAccount: CreateRate
}

/** Several series taken together: creates per second over their summed time. */
export interface CreateRate {
  perSecond: number
  ok: number
  errors: number
}

/** The series alternate between the two identities, so a machine whose speed drifts weighs on both alike. */
export const ROUNDS = 4

const ADMIN_NS = 'bench-admin'
const SA_NS = 'bench-rbac'
/** Creates per identity: enough for a steady rate, few enough to keep the run short. */
const MAX_CREATES = 2_000

/**
 * The same configmap creates with the admin token and with a service-account token bound to the
 * `edit` ClusterRole by a RoleBinding, in alternating series against the same control plane (the
 * admin first in each round, so the service account meets the larger store).
 */
export async function rbacCreates(
  o: BenchOptions,
  admin: HttpClient,
  target: { url: string; ca: string },
  serverPids: number[],
): Promise<RbacCreates> {
  for (const ns of [ADMIN_NS, SA_NS])
    await admin.expectOk(
      'POST',
      '/api/v1/namespaces',
      JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
    )
  const sa = await editorClient(o, admin, target, SA_NS)
  try {
    const count = Math.max(1, Math.floor(Math.min(o.objects, MAX_CREATES) / ROUNDS))
    const series = { concurrency: o.concurrency, timeLimitMs: o.timeLimitMs, count }
    const create = (client: HttpClient, ns: string, offset: number) => async (i: number) => {
      expectStatus(
        await client.request(
          'POST',
          `/api/v1/namespaces/${ns}/configmaps`,
          configMapJson(objectName('cm', offset + i), ns),
        ),
        201,
      )
    }
    await measuredSeries('create warm-up as service account', [], {
      ...series,
      count: o.warmup,
      request: create(sa, SA_NS, 0),
    })
    const admins: SeriesResult[] = []
    const accounts: SeriesResult[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const offset = o.warmup + round * count
      admins.push(
        await measuredSeries(
          `create as admin c=${o.concurrency} (${round + 1}/${ROUNDS})`,
          serverPids,
          { ...series, request: create(admin, ADMIN_NS, offset) },
        ),
      )
      accounts.push(
        await measuredSeries(
          `create as service account (edit) c=${o.concurrency} (${round + 1}/${ROUNDS})`,
          serverPids,
          { ...series, request: create(sa, SA_NS, offset) },
        ),
      )
    }
    return { admin: combined(admins), serviceAccount: combined(accounts) }
  } finally {
    sa.close()
  }
}

/** A client with the token of a service account `deployer` of `namespace`, bound there to the `edit` ClusterRole. */
export async function editorClient(
  o: BenchOptions,
  admin: HttpClient,
  target: { url: string; ca: string },
  namespace: string,
): Promise<HttpClient> {
  await admin.expectOk(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts`,
    JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'deployer' } }),
  )
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'deployer-edit' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
    subjects: [{ kind: 'ServiceAccount', name: 'deployer', namespace }],
  }
  await admin.expectOk(
    'POST',
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`,
    JSON.stringify(binding),
  )
  const tokenReq = await admin.expectOk(
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/deployer/token`,
    JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }),
  )
  const token = (JSON.parse(tokenReq.body) as { status: { token: string } }).status.token
  return new HttpClient(target.url, { ca: target.ca, token, connections: o.concurrency })
}

/** Several series as one rate: their creates over their summed time. */
export function combined(series: SeriesResult[]): CreateRate {
  const ok = series.reduce((n, s) => n + s.ok, 0)
  const seconds = series.reduce((n, s) => n + s.elapsedMs, 0) / 1000
  return {
    perSecond: seconds > 0 ? ok / seconds : 0,
    ok,
    errors: series.reduce((n, s) => n + s.errors, 0),
  }
}
