import { describe, expect, it } from 'vitest'
import { api } from './helpers'
import { runner } from './controller-runner'

const policies = '/apis/admissionregistration.k8s.io/v1'

async function create(path: string, body: unknown) {
  const res = await api('POST', path, body)
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.json)}`)
  return res.json
}

describe('a HorizontalPodAutoscaler whose scale write the API refuses', () => {
  it('reports the refusal as FailedRescale and AbleToScale=False FailedUpdateScale, and leaves desiredReplicas', async () => {
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hpa-refused', labels: { cap: 'two' } } })
    // An admission policy that caps every Deployment's scale at 2 replicas.
    const rule = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['deployments/scale'] }
    await create(`${policies}/validatingadmissionpolicies`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'cap.example.com' },
      spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'object.spec.replicas <= 2' }] },
    })
    await create(`${policies}/validatingadmissionpolicybindings`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'cap-binding.example.com' },
      spec: { policyName: 'cap.example.com', validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { cap: 'two' } } } },
    })
    const labels = { app: 'web' }
    await create('/apis/apps/v1/namespaces/hpa-refused/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'main', image: 'busybox' }] } } },
    })
    // What the API answers a client that sets the scale to 3.
    const scale = (await api('GET', '/apis/apps/v1/namespaces/hpa-refused/deployments/web/scale')).json
    const direct = await api('PUT', '/apis/apps/v1/namespaces/hpa-refused/deployments/web/scale', { ...scale, spec: { replicas: 3 } })
    expect(direct.status).toBeGreaterThanOrEqual(400)
    const error: string = direct.json.message
    expect(error).toContain("ValidatingAdmissionPolicy 'cap.example.com' with binding 'cap-binding.example.com' denied request")

    await create('/apis/autoscaling/v2/namespaces/hpa-refused/horizontalpodautoscalers', {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 3, maxReplicas: 5 },
    })
    const hpaController = runner('horizontal-pod-autoscaler')
    let hpa: any
    for (let i = 0; i < 6; i++) {
      await hpaController.pass(() => Date.now() + i * 1000)
      hpa = (await api('GET', '/apis/autoscaling/v2/namespaces/hpa-refused/horizontalpodautoscalers/web')).json
      if (hpa.status?.conditions?.some((c: any) => c.reason === 'FailedUpdateScale')) break
    }
    expect(hpa.status.conditions.find((c: any) => c.type === 'AbleToScale')).toMatchObject({
      status: 'False',
      reason: 'FailedUpdateScale',
      message: `the HPA controller was unable to update the target scale: ${error}`,
    })
    expect(hpa.status).toMatchObject({ currentReplicas: 1, desiredReplicas: 0 })
    expect(hpa.status.lastScaleTime).toBeUndefined()
    const events = (await api('GET', '/api/v1/namespaces/hpa-refused/events?fieldSelector=involvedObject.name%3Dweb,involvedObject.kind%3DHorizontalPodAutoscaler')).json.items
    const failed = events.filter((e: any) => e.reason === 'FailedRescale')
    expect(failed.map((e: any) => [e.type, e.source.component, e.message])).toEqual([
      ['Warning', 'horizontal-pod-autoscaler', `New size: 3; reason: Current number of replicas below Spec.MinReplicas; error: ${error}`],
    ])
    expect(events.filter((e: any) => e.reason === 'SuccessfulRescale')).toEqual([])
    expect((await api('GET', '/apis/apps/v1/namespaces/hpa-refused/deployments/web')).json.spec.replicas).toBe(1)
  })
})
