import { HttpClient } from '../http-client'
import type { BenchOptions } from '../options'
import { configMapJson, objectName } from '../payload'
import { expectStatus, measuredSeries, type SeriesResult } from './series'

/** Creates as the admin (system:masters, no RBAC lookup) and as a service account bound to `edit`. */
export interface RbacCreates {
  admin: SeriesResult
  serviceAccount: SeriesResult
}

const ADMIN_NS = 'bench-admin'
const SA_NS = 'bench-rbac'
/** Creates per identity: enough for a steady rate, few enough to keep the run short. */
const MAX_CREATES = 2_000

/**
 * The same configmap creates with the admin token and with a service-account token bound to the
 * `edit` ClusterRole by a RoleBinding, one series after the other in the same control plane; the
 * admin goes first, so the service account meets the larger store.
 */
export async function rbacCreates(o: BenchOptions, admin: HttpClient, target: { url: string; ca: string }, serverPids: number[]): Promise<RbacCreates> {
  for (const ns of [ADMIN_NS, SA_NS]) await admin.expectOk('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }))
  await admin.expectOk('POST', `/api/v1/namespaces/${SA_NS}/serviceaccounts`, JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'deployer' } }))
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'deployer-edit' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
    subjects: [{ kind: 'ServiceAccount', name: 'deployer', namespace: SA_NS }],
  }
  await admin.expectOk('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${SA_NS}/rolebindings`, JSON.stringify(binding))
  const tokenReq = await admin.expectOk('POST', `/api/v1/namespaces/${SA_NS}/serviceaccounts/deployer/token`, JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }))
  const token = (JSON.parse(tokenReq.body) as { status: { token: string } }).status.token
  const sa = new HttpClient(target.url, { ca: target.ca, token, connections: o.concurrency })
  try {
    const count = Math.min(o.objects, MAX_CREATES)
    const series = { concurrency: o.concurrency, timeLimitMs: o.timeLimitMs, count }
    const create = (client: HttpClient, ns: string) => async (i: number) => {
      expectStatus(await client.request('POST', `/api/v1/namespaces/${ns}/configmaps`, configMapJson(objectName('cm', i), ns)), 201)
    }
    await measuredSeries('create warm-up as service account', [], { ...series, count: o.warmup, request: create(sa, SA_NS) })
    const adminSeries = await measuredSeries(`create as admin c=${o.concurrency}`, serverPids, { ...series, request: create(admin, ADMIN_NS) })
    const saSeries = await measuredSeries(`create as service account (edit) c=${o.concurrency}`, serverPids, { ...series, request: (i) => create(sa, SA_NS)(i + o.warmup) })
    return { admin: adminSeries, serviceAccount: saSeries }
  } finally {
    sa.close()
  }
}
