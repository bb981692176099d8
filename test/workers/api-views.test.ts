import { describe, expect, it } from 'vitest'
import { api } from './helpers'

const admission = '/apis/admissionregistration.k8s.io/v1'
const hpaV1 = '/apis/autoscaling/v1/namespaces/views/horizontalpodautoscalers'
const eventsV1 = '/apis/events.k8s.io/v1/namespaces/views/events'

async function create(path: string, body: unknown) {
  const res = await api('POST', path, body)
  if (res.status !== 201)
    throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.json)}`)
  return res.json
}

/** A policy, bound in the namespaces labelled `label: 'true'`, refusing writes of the rules' resources by anyone but `username`. */
async function onlyWrittenBy(name: string, username: string, rules: unknown[], label: string) {
  await create(`${admission}/validatingadmissionpolicies`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      matchConstraints: { resourceRules: rules },
      validations: [
        {
          expression: `request.userInfo.username == '${username}'`,
          messageExpression: "'written as ' + request.userInfo.username",
        },
      ],
    },
  })
  await create(`${admission}/validatingadmissionpolicybindings`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: {
      policyName: name,
      validationActions: ['Deny'],
      matchResources: { namespaceSelector: { matchLabels: { [label]: 'true' } } },
    },
  })
}

const hpa = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    maxReplicas: 3,
    targetCPUUtilizationPercentage: 50,
  },
  ...extra,
})

const event = (name: string) => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
  reportingController: 'example.com/operator',
  reportingInstance: 'operator-0',
  action: 'Reconcile',
  reason: 'Synced',
  type: 'Normal',
  regarding: { kind: 'ConfigMap', namespace: 'views', name: 'widget', apiVersion: 'v1' },
})

/** The Warning header's unknown-field entries, one per warning sent. */
const unknownFieldWarnings = (headers: Headers) =>
  (headers.get('Warning') ?? '').match(/unknown field \\"[^\\]+\\"/g) ?? []

describe('API views (autoscaling/v1, events.k8s.io/v1)', () => {
  it('write as the user who asked: admission sees the caller, not an anonymous one', async () => {
    await create('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'views', labels: { views: 'true' } },
    })
    const rules = [
      {
        apiGroups: ['', 'autoscaling', 'events.k8s.io'],
        apiVersions: ['*'],
        operations: ['CREATE', 'UPDATE', 'DELETE'],
        resources: ['events', 'horizontalpodautoscalers'],
      },
    ]
    await onlyWrittenBy('views-writers.example.com', 'kubernetes-admin', rules, 'views')

    const made = await api('POST', hpaV1, hpa('web'))
    expect(made.status, JSON.stringify(made.json)).toBe(201)
    const replaced = await api('PUT', `${hpaV1}/web`, {
      ...made.json,
      spec: { ...made.json.spec, maxReplicas: 4 },
    })
    expect(replaced.status, JSON.stringify(replaced.json)).toBe(200)
    const patched = await api(
      'PATCH',
      `${hpaV1}/web`,
      { spec: { maxReplicas: 5 } },
      'application/merge-patch+json',
    )
    expect(patched.status, JSON.stringify(patched.json)).toBe(200)
    expect(patched.json.spec.maxReplicas).toBe(5)

    expect((await api('POST', eventsV1, event('synced'))).status).toBe(201)
    const notePatched = await api(
      'PATCH',
      `${eventsV1}/synced`,
      { note: 'again' },
      'application/merge-patch+json',
    )
    expect(notePatched.status, JSON.stringify(notePatched.json)).toBe(200)
    expect((await api('DELETE', `${eventsV1}/synced`)).status).toBe(200)
    expect((await api('DELETE', `${hpaV1}/web`)).status).toBe(200)

    // Another user (the admin impersonating one) is refused by name, through either view.
    const as = { 'Impersonate-User': 'someone', 'Impersonate-Group': 'system:masters' }
    const other = await api('POST', hpaV1, hpa('other'), 'application/json', as)
    expect(other.status).toBe(422)
    expect(other.json.message).toMatch(/denied request: written as someone$/)
    const otherEvent = await api('POST', eventsV1, event('other'), 'application/json', as)
    expect(otherEvent.status).toBe(422)
    expect(otherEvent.json.message).toMatch(/denied request: written as someone$/)
  })

  it('re-applies a patch to a fresh read when another write came in between, unless the patch names a resourceVersion', async () => {
    await create('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'views-patch' },
    })
    const path = '/apis/autoscaling/v1/namespaces/views-patch/horizontalpodautoscalers'
    const made = await create(path, hpa('web'))
    const labels = ['a', 'b', 'c', 'd']
    const answers = await Promise.all(
      labels.map((l) =>
        api(
          'PATCH',
          `${path}/web`,
          { metadata: { labels: { [l]: 'true' } } },
          'application/merge-patch+json',
        ),
      ),
    )
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200])
    const stored = (
      await api('GET', `/apis/autoscaling/v2/namespaces/views-patch/horizontalpodautoscalers/web`)
    ).json
    expect(Object.keys(stored.metadata.labels).sort()).toEqual(labels)

    const stale = await api(
      'PATCH',
      `${path}/web`,
      { metadata: { resourceVersion: made.metadata.resourceVersion }, spec: { maxReplicas: 9 } },
      'application/merge-patch+json',
    )
    expect(stale.status).toBe(409)
    expect(stale.json.reason).toBe('Conflict')
    const staleJson = await api(
      'PATCH',
      `${path}/web`,
      [
        { op: 'replace', path: '/metadata/resourceVersion', value: made.metadata.resourceVersion },
        { op: 'replace', path: '/spec/maxReplicas', value: 9 },
      ],
      'application/json-patch+json',
    )
    expect(staleJson.status).toBe(409)
    expect((await api('GET', `${path}/web`)).json.spec.maxReplicas).toBe(3)
  })

  it('warns of each unknown field of an autoscaling/v1 body once', async () => {
    await create('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'views-fields' },
    })
    const path = '/apis/autoscaling/v1/namespaces/views-fields/horizontalpodautoscalers'
    const body = hpa('web', { bogus: 1 })
    ;(body.metadata as Record<string, unknown>).stray = 'x'
    ;(body.spec as Record<string, unknown>).extra = true
    const made = await api('POST', path, body)
    expect(made.status).toBe(201)
    expect(unknownFieldWarnings(made.headers).sort()).toEqual([
      'unknown field \\"bogus\\"',
      'unknown field \\"metadata.stray\\"',
      'unknown field \\"spec.extra\\"',
    ])
    expect(made.json.bogus).toBeUndefined()
    expect(made.json.metadata.stray).toBeUndefined()

    const patched = await api(
      'PATCH',
      `${path}/web`,
      { bogus: 2, metadata: { stray: 'y' } },
      'application/merge-patch+json',
    )
    expect(patched.status).toBe(200)
    expect(unknownFieldWarnings(patched.headers).sort()).toEqual([
      'unknown field \\"bogus\\"',
      'unknown field \\"metadata.stray\\"',
    ])
  })
})

describe('dry-run trials of a write', () => {
  it("run as the writer: a Role's escalation trial is admitted as the user who asked", async () => {
    await create('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'views-rbac', labels: { trial: 'true' } },
    })
    await create('/apis/rbac.authorization.k8s.io/v1/namespaces/views-rbac/rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'role-writer' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'role-writer' }],
    })
    await onlyWrittenBy(
      'role-writers.example.com',
      'role-writer',
      [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          apiVersions: ['v1'],
          operations: ['CREATE'],
          resources: ['roles'],
        },
      ],
      'trial',
    )
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'reader' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
    }
    const made = await api(
      'POST',
      '/apis/rbac.authorization.k8s.io/v1/namespaces/views-rbac/roles',
      role,
      'application/json',
      { 'Impersonate-User': 'role-writer' },
    )
    expect(made.status, JSON.stringify(made.json)).toBe(201)
  })
})
