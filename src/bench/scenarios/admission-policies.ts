import type { HttpClient } from '../http-client'
import type { BenchOptions } from '../options'
import { configMapJson, objectName } from '../payload'
import { combined, ROUNDS, type CreateRate } from './rbac'
import { expectStatus, measuredSeries, type SeriesResult } from './series'

export interface PolicyCreates {
  /** creates in a namespace no binding of the policy selects */
  none: CreateRate
  /** creates each validated by the policy's CEL expressions */
  validated: CreateRate
}

const POLICY_NS = 'bench-vap'
const PLAIN_NS = 'bench-no-vap'
const MAX_CREATES = 2_000
const group = '/apis/admissionregistration.k8s.io/v1'

/**
 * The same configmap creates with a ValidatingAdmissionPolicy bound to configmap creates: in a
 * namespace its binding selects (each create is dry-run, then its two CEL validations evaluated)
 * and in one the binding leaves out, alternating series on one control plane.
 */
export async function policyCreates(
  o: BenchOptions,
  admin: HttpClient,
  serverPids: number[],
): Promise<PolicyCreates> {
  await admin.expectOk(
    'POST',
    '/api/v1/namespaces',
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: POLICY_NS, labels: { 'bench-vap': 'on' } },
    }),
  )
  await admin.expectOk(
    'POST',
    '/api/v1/namespaces',
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: PLAIN_NS } }),
  )
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'bench.vap.edgeplane.dev' },
    spec: {
      matchConstraints: {
        resourceRules: [
          {
            operations: ['CREATE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['configmaps'],
          },
        ],
      },
      validations: [
        { expression: "object.metadata.name.startsWith('vap-')" },
        {
          expression: '!has(object.data) || object.data.all(k, size(object.data[k]) < 1048576)',
          message: 'values are under 1 MiB',
        },
      ],
    },
  }
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'bench.vap.edgeplane.dev' },
    spec: {
      policyName: policy.metadata.name,
      validationActions: ['Deny'],
      matchResources: { namespaceSelector: { matchLabels: { 'bench-vap': 'on' } } },
    },
  }
  await admin.expectOk('POST', `${group}/validatingadmissionpolicies`, JSON.stringify(policy))
  await admin.expectOk(
    'POST',
    `${group}/validatingadmissionpolicybindings`,
    JSON.stringify(binding),
  )
  const count = Math.max(1, Math.floor(Math.min(o.objects, MAX_CREATES) / ROUNDS))
  const series = { concurrency: o.concurrency, timeLimitMs: o.timeLimitMs, count }
  const create = (ns: string, offset: number) => async (i: number) => {
    expectStatus(
      await admin.request(
        'POST',
        `/api/v1/namespaces/${ns}/configmaps`,
        configMapJson(objectName('vap', offset + i), ns),
      ),
      201,
    )
  }
  await measuredSeries('create warm-up with a policy', [], {
    ...series,
    count: o.warmup,
    request: create(POLICY_NS, 0),
  })
  const none: SeriesResult[] = []
  const validated: SeriesResult[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const offset = o.warmup + round * count
    none.push(
      await measuredSeries(
        `create, no policy binding selects c=${o.concurrency} (${round + 1}/${ROUNDS})`,
        serverPids,
        { ...series, request: create(PLAIN_NS, offset) },
      ),
    )
    validated.push(
      await measuredSeries(
        `create, policy validates c=${o.concurrency} (${round + 1}/${ROUNDS})`,
        serverPids,
        { ...series, request: create(POLICY_NS, offset) },
      ),
    )
  }
  return { none: combined(none), validated: combined(validated) }
}
