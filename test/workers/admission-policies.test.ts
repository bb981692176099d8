import { describe, expect, it } from 'vitest'
import { api, configMap } from './helpers'

const group = '/apis/admissionregistration.k8s.io/v1'

const ns = (name: string, labels: Record<string, string> = {}) =>
  api('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels },
  })

async function create(path: string, body: unknown) {
  const res = await api('POST', path, body)
  if (res.status !== 201)
    throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.json)}`)
  return res.json
}

const policy = (name: string, spec: Record<string, unknown>) =>
  create(`${group}/validatingadmissionpolicies`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec,
  })
const binding = (name: string, spec: Record<string, unknown>) =>
  create(`${group}/validatingadmissionpolicybindings`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec,
  })

const deploymentRule = {
  apiGroups: ['apps'],
  apiVersions: ['v1'],
  operations: ['CREATE', 'UPDATE'],
  resources: ['deployments'],
}

function deployment(name: string, replicas: number) {
  const labels = { app: name }
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name: 'main', image: 'busybox' }] },
      },
    },
  }
}

const inNamespace = (label: string) => ({ namespaceSelector: { matchLabels: { vap: label } } })

describe('ValidatingAdmissionPolicy', () => {
  it('is served cluster-scoped with its defaults, and refuses an expression that does not compile', async () => {
    const created = await policy('defaults.example.com', {
      matchConstraints: { resourceRules: [deploymentRule] },
      validations: [{ expression: 'object.spec.replicas <= 5' }],
    })
    expect(created.spec).toMatchObject({
      failurePolicy: 'Fail',
      matchConstraints: {
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        resourceRules: [{ scope: '*' }],
      },
    })
    const bad = await api('POST', `${group}/validatingadmissionpolicies`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'bad.example.com' },
      spec: {
        matchConstraints: { resourceRules: [deploymentRule] },
        validations: [{ expression: 'object.spec.replicas <=' }],
      },
    })
    expect(bad.status).toBe(422)
    expect(bad.json.message).toMatch(
      /^ValidatingAdmissionPolicy.admissionregistration.k8s.io "bad.example.com" is invalid: spec.validations\[0\].expression: Invalid value: "object.spec.replicas <=": compilation failed: ERROR: <input>: /,
    )
    const table = await api(
      'GET',
      `${group}/validatingadmissionpolicies/defaults.example.com`,
      undefined,
      'application/json',
      { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    )
    expect(table.json.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      'Name',
      'Validations',
      'ParamKind',
      'Age',
    ])
    expect(table.json.rows[0].cells.slice(0, 3)).toEqual(['defaults.example.com', 1, '<unset>'])
    // kubectl explain reads the fields from the OpenAPI document.
    const openapi = await api('GET', '/openapi/v3/apis/admissionregistration.k8s.io/v1')
    const schemas = openapi.json.components.schemas
    expect(
      Object.keys(
        schemas['io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicySpec'].properties,
      ).sort(),
    ).toEqual([
      'auditAnnotations',
      'failurePolicy',
      'matchConditions',
      'matchConstraints',
      'paramKind',
      'validations',
      'variables',
    ])
    expect(
      schemas['io.k8s.api.admissionregistration.v1.ParamRef'].properties.parameterNotFoundAction,
    ).toBeDefined()
  })

  it("refuses, with upstream's message and 422, a Deployment over the docs example's limit in a bound namespace only", async () => {
    await ns('vap-test', { vap: 'demo' })
    await ns('vap-other')
    await policy('demo-policy.example.com', {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [deploymentRule] },
      validations: [{ expression: 'object.spec.replicas <= 5' }],
    })
    await binding('demo-binding-test.example.com', {
      policyName: 'demo-policy.example.com',
      validationActions: ['Deny'],
      matchResources: inNamespace('demo'),
    })

    const refused = await api(
      'POST',
      '/apis/apps/v1/namespaces/vap-test/deployments',
      deployment('nginx', 6),
    )
    expect(refused.status).toBe(422)
    const why =
      "ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5"
    expect(refused.json).toMatchObject({
      reason: 'Invalid',
      message: `deployments.apps "nginx" is forbidden: ${why}`,
      details: { name: 'nginx', group: 'apps', kind: 'deployments', causes: [{ message: why }] },
    })
    expect((await api('GET', '/apis/apps/v1/namespaces/vap-test/deployments/nginx')).status).toBe(
      404,
    )

    expect(
      (await api('POST', '/apis/apps/v1/namespaces/vap-other/deployments', deployment('nginx', 6)))
        .status,
    ).toBe(201)
    const ok = await api(
      'POST',
      '/apis/apps/v1/namespaces/vap-test/deployments',
      deployment('nginx', 5),
    )
    expect(ok.status).toBe(201)
    const scaledUp = await api('PUT', '/apis/apps/v1/namespaces/vap-test/deployments/nginx', {
      ...ok.json,
      spec: { ...ok.json.spec, replicas: 7 },
    })
    expect(scaledUp.status).toBe(422)
    expect(
      (await api('GET', '/apis/apps/v1/namespaces/vap-test/deployments/nginx')).json.spec.replicas,
    ).toBe(5)
  })

  it('warns instead of refusing for a Warn binding, and answers a validation reason with its code', async () => {
    await ns('vap-warn', { vap: 'warn' })
    await policy('warn-policy.example.com', {
      matchConstraints: { resourceRules: [deploymentRule] },
      validations: [
        {
          expression: 'object.spec.replicas <= 2',
          messageExpression: "'replicas ' + string(object.spec.replicas) + ' is over 2'",
        },
      ],
    })
    await binding('warn-binding.example.com', {
      policyName: 'warn-policy.example.com',
      validationActions: ['Warn'],
      matchResources: inNamespace('warn'),
    })
    const warned = await api(
      'POST',
      '/apis/apps/v1/namespaces/vap-warn/deployments',
      deployment('w', 3),
    )
    expect(warned.status).toBe(201)
    expect(warned.headers.get('Warning')).toContain(
      "Validation failed for ValidatingAdmissionPolicy 'warn-policy.example.com' with binding 'warn-binding.example.com': replicas 3 is over 2",
    )

    await ns('vap-reason', { vap: 'reason' })
    await policy('name-policy.example.com', {
      matchConstraints: { resourceRules: [deploymentRule] },
      validations: [
        {
          expression: "object.metadata.name.startsWith('team-')",
          reason: 'Forbidden',
          message: 'names start with team-',
        },
      ],
    })
    await binding('name-binding.example.com', {
      policyName: 'name-policy.example.com',
      validationActions: ['Deny'],
      matchResources: inNamespace('reason'),
    })
    const forbidden = await api(
      'POST',
      '/apis/apps/v1/namespaces/vap-reason/deployments',
      deployment('web', 1),
    )
    expect(forbidden.status).toBe(403)
    expect(forbidden.json).toMatchObject({
      reason: 'Forbidden',
      message:
        "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'name-policy.example.com' with binding 'name-binding.example.com' denied request: names start with team-",
    })
    expect(
      (
        await api(
          'POST',
          '/apis/apps/v1/namespaces/vap-reason/deployments',
          deployment('team-web', 1),
        )
      ).status,
    ).toBe(201)
  })

  it('reads a ConfigMap param named by the binding, and meets parameterNotFoundAction when it is missing', async () => {
    await ns('vap-params', { vap: 'params' })
    await ns('vap-config')
    await create(
      '/api/v1/namespaces/vap-config/configmaps',
      configMap('replica-limit', { maxReplicas: '3' }),
    )
    await policy('param-policy.example.com', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [deploymentRule] },
      variables: [{ name: 'max', expression: 'int(params.data.maxReplicas)' }],
      validations: [
        {
          expression: 'object.spec.replicas <= variables.max',
          messageExpression:
            "'object.spec.replicas must be no greater than ' + string(variables.max)",
        },
      ],
    })
    await binding('param-binding.example.com', {
      policyName: 'param-policy.example.com',
      validationActions: ['Deny'],
      paramRef: { name: 'replica-limit', namespace: 'vap-config', parameterNotFoundAction: 'Deny' },
      matchResources: inNamespace('params'),
    })
    const over = await api(
      'POST',
      '/apis/apps/v1/namespaces/vap-params/deployments',
      deployment('big', 4),
    )
    expect(over.status).toBe(422)
    expect(over.json.message).toContain(
      'denied request: object.spec.replicas must be no greater than 3',
    )
    expect(
      (await api('POST', '/apis/apps/v1/namespaces/vap-params/deployments', deployment('small', 3)))
        .status,
    ).toBe(201)

    expect(
      (await api('DELETE', '/api/v1/namespaces/vap-config/configmaps/replica-limit')).status,
    ).toBe(200)
    const missing = await api(
      'POST',
      '/apis/apps/v1/namespaces/vap-params/deployments',
      deployment('any', 1),
    )
    expect(missing.status).toBe(422)
    expect(missing.json.message).toContain(
      "with binding 'param-binding.example.com' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    )
  })

  it('validates deletes against oldObject, and sees who asks in request.userInfo', async () => {
    await ns('vap-delete', { vap: 'delete' })
    await policy('keep-policy.example.com', {
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: [''],
            apiVersions: ['v1'],
            operations: ['DELETE'],
            resources: ['configmaps'],
          },
        ],
      },
      validations: [
        {
          expression:
            "!has(oldObject.metadata.labels) || oldObject.metadata.labels.?keep.orValue('') != 'true'",
          messageExpression:
            "request.userInfo.username + ' may not delete ' + oldObject.metadata.name",
        },
      ],
    })
    await binding('keep-binding.example.com', {
      policyName: 'keep-policy.example.com',
      validationActions: ['Deny'],
      matchResources: inNamespace('delete'),
    })
    await create(
      '/api/v1/namespaces/vap-delete/configmaps',
      configMap('kept', { a: 'b' }, { keep: 'true' }),
    )
    await create('/api/v1/namespaces/vap-delete/configmaps', configMap('gone'))
    const refused = await api('DELETE', '/api/v1/namespaces/vap-delete/configmaps/kept')
    expect(refused.status).toBe(422)
    expect(refused.json.message).toMatch(/denied request: .+ may not delete kept$/)
    expect((await api('DELETE', '/api/v1/namespaces/vap-delete/configmaps/gone')).status).toBe(200)
    expect((await api('GET', '/api/v1/namespaces/vap-delete/configmaps/kept')).status).toBe(200)
  })

  it('lets only a user who may get the params set a paramKind or paramRef', async () => {
    const rbac = '/apis/rbac.authorization.k8s.io/v1'
    const clusterRole = (name: string, rules: object[]) =>
      create(`${rbac}/clusterroles`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name },
        rules,
      })
    const grant = (name: string, user: string) =>
      create(`${rbac}/clusterrolebindings`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
      })
    await clusterRole('policy-writer', [
      { verbs: ['*'], apiGroups: ['admissionregistration.k8s.io'], resources: ['*'] },
    ])
    await grant('policy-writer', 'author')
    await create(`${rbac}/clusterrolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'policy-writer-reader' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'policy-writer',
      },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'reader' }],
    })
    await clusterRole('configmap-reader', [
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'] },
    ])
    await grant('configmap-reader', 'reader')
    const as = (user: string) => ({ 'Impersonate-User': user })
    const spec = {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [deploymentRule] },
      validations: [{ expression: 'true' }],
    }
    const body = (name: string) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec,
    })

    const refused = await api(
      'POST',
      `${group}/validatingadmissionpolicies`,
      body('authz.example.com'),
      'application/json',
      as('author'),
    )
    expect(refused.status).toBe(422)
    expect(refused.json.message).toMatch(
      /^ValidatingAdmissionPolicy\.admissionregistration\.k8s\.io "authz\.example\.com" is invalid: spec\.paramKind: Forbidden: user &\{author .* must have "get" permission on all objects of the referenced paramKind \(kind=ConfigMap, apiVersion=v1\)$/,
    )
    expect(
      (await api('GET', `${group}/validatingadmissionpolicies/authz.example.com`)).status,
    ).toBe(404)
    expect(
      (
        await api(
          'POST',
          `${group}/validatingadmissionpolicies`,
          body('authz.example.com'),
          'application/json',
          as('reader'),
        )
      ).status,
    ).toBe(201)

    const bindingBody = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'authz-binding.example.com' },
      spec: {
        policyName: 'authz.example.com',
        validationActions: ['Deny'],
        paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Allow' },
      },
    }
    const unbound = await api(
      'POST',
      `${group}/validatingadmissionpolicybindings`,
      bindingBody,
      'application/json',
      as('author'),
    )
    expect(unbound.status).toBe(422)
    expect(unbound.json.message).toContain('spec.paramRef: Forbidden: user &{author')
    expect(unbound.json.message).toContain(
      'does not have "get" permission on the object referenced by paramRef',
    )
    expect(
      (
        await api(
          'POST',
          `${group}/validatingadmissionpolicybindings`,
          bindingBody,
          'application/json',
          as('reader'),
        )
      ).status,
    ).toBe(201)
    // An update that keeps the paramRef is not checked again.
    const relabelled = await api(
      'PATCH',
      `${group}/validatingadmissionpolicybindings/authz-binding.example.com`,
      { metadata: { labels: { a: 'b' } } },
      'application/merge-patch+json',
      as('author'),
    )
    expect(relabelled.status).toBe(200)
  })
})
