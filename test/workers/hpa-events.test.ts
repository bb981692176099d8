import { describe, expect, it } from 'vitest'
import { api } from './helpers'
import { runner } from './controller-runner'

const policies = '/apis/admissionregistration.k8s.io/v1'

async function create(path: string, body: unknown) {
  const res = await api('POST', path, body)
  if (res.status !== 201)
    throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.json)}`)
  return res.json
}

/** A namespace with a Deployment `web` of `replicas`, and an autoscaler `web` keeping it within `min` and `max`. */
async function autoscaledDeployment(
  namespace: string,
  replicas: number,
  min: number,
  max: number,
  labels: Record<string, string> = {},
) {
  await create('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace, labels },
  })
  const app = { app: 'web' }
  await create(`/apis/apps/v1/namespaces/${namespace}/deployments`, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas,
      selector: { matchLabels: app },
      template: {
        metadata: { labels: app },
        spec: { containers: [{ name: 'main', image: 'busybox' }] },
      },
    },
  })
  await create(`/apis/autoscaling/v2/namespaces/${namespace}/horizontalpodautoscalers`, {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: min,
      maxReplicas: max,
    },
  })
}

describe('a HorizontalPodAutoscaler whose scale write the API refuses', () => {
  it('reports the refusal as FailedRescale and AbleToScale=False FailedUpdateScale, and leaves desiredReplicas', async () => {
    // An admission policy that caps every Deployment's scale at 2 replicas.
    const rule = {
      apiGroups: ['apps'],
      apiVersions: ['v1'],
      operations: ['UPDATE'],
      resources: ['deployments/scale'],
    }
    await create(`${policies}/validatingadmissionpolicies`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'cap.example.com' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [rule] },
        validations: [{ expression: 'object.spec.replicas <= 2' }],
      },
    })
    await create(`${policies}/validatingadmissionpolicybindings`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'cap-binding.example.com' },
      spec: {
        policyName: 'cap.example.com',
        validationActions: ['Deny'],
        matchResources: { namespaceSelector: { matchLabels: { cap: 'two' } } },
      },
    })
    await autoscaledDeployment('hpa-refused', 1, 3, 5, { cap: 'two' })
    // What the API answers a client that sets the scale to 3.
    const scale = (await api('GET', '/apis/apps/v1/namespaces/hpa-refused/deployments/web/scale'))
      .json
    const direct = await api('PUT', '/apis/apps/v1/namespaces/hpa-refused/deployments/web/scale', {
      ...scale,
      spec: { replicas: 3 },
    })
    expect(direct.status).toBeGreaterThanOrEqual(400)
    const error: string = direct.json.message
    expect(error).toContain(
      "ValidatingAdmissionPolicy 'cap.example.com' with binding 'cap-binding.example.com' denied request",
    )

    const hpaController = runner('horizontal-pod-autoscaler')
    let hpa: any
    for (let i = 0; i < 6; i++) {
      await hpaController.pass(() => Date.now() + i * 1000)
      hpa = (
        await api('GET', '/apis/autoscaling/v2/namespaces/hpa-refused/horizontalpodautoscalers/web')
      ).json
      if (hpa.status?.conditions?.some((c: any) => c.reason === 'FailedUpdateScale')) break
    }
    expect(hpa.status.conditions.find((c: any) => c.type === 'AbleToScale')).toMatchObject({
      status: 'False',
      reason: 'FailedUpdateScale',
      message: `the HPA controller was unable to update the target scale: ${error}`,
    })
    expect(hpa.status).toMatchObject({ currentReplicas: 1, desiredReplicas: 0 })
    expect(hpa.status.lastScaleTime).toBeUndefined()
    const events = (
      await api(
        'GET',
        '/api/v1/namespaces/hpa-refused/events?fieldSelector=involvedObject.name%3Dweb,involvedObject.kind%3DHorizontalPodAutoscaler',
      )
    ).json.items
    const failed = events.filter((e: any) => e.reason === 'FailedRescale')
    expect(failed.map((e: any) => [e.type, e.source.component, e.message])).toEqual([
      [
        'Warning',
        'horizontal-pod-autoscaler',
        `New size: 3; reason: Current number of replicas below Spec.MinReplicas; error: ${error}`,
      ],
    ])
    expect(events.filter((e: any) => e.reason === 'SuccessfulRescale')).toEqual([])
    expect(
      (await api('GET', '/apis/apps/v1/namespaces/hpa-refused/deployments/web')).json.spec.replicas,
    ).toBe(1)
  })
})

describe("controllers' events pass the spam filter", () => {
  it('an autoscaler warning every 15 s stops being written once its burst of 25 is spent', async () => {
    await autoscaledDeployment('spam', 2, 1, 3)
    // 30 syncs, 15 s apart: each warns twice (the metric, and the replica computation).
    const hpaController = runner('horizontal-pod-autoscaler')
    const t0 = Date.now()
    const syncs = 30
    for (let i = 0; i < syncs; i++) await hpaController.pass(() => t0 + i * 15_000)

    const events = (
      await api(
        'GET',
        '/api/v1/namespaces/spam/events?fieldSelector=involvedObject.kind%3DHorizontalPodAutoscaler',
      )
    ).json.items
    const warnings = events.filter((e: any) => e.type === 'Warning')
    expect(warnings.map((e: any) => e.reason).sort()).toEqual([
      'FailedComputeMetricsReplicas',
      'FailedGetResourceMetric',
    ])
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
