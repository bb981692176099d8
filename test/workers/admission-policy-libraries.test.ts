import { describe, expect, it } from 'vitest'
import { api, configMap } from './helpers'

// ValidatingAdmissionPolicies written with Kubernetes' CEL libraries, refusing and admitting
// writes through the real API: cidr, ip, quantity, url, sets, format and the authorizer.

const group = '/apis/admissionregistration.k8s.io/v1'
const rbac = '/apis/rbac.authorization.k8s.io/v1'

async function create(path: string, body: unknown) {
  const res = await api('POST', path, body)
  if (res.status !== 201)
    throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.json)}`)
  return res.json
}

const configMapRule = {
  apiGroups: [''],
  apiVersions: ['v1'],
  operations: ['CREATE', 'UPDATE'],
  resources: ['configmaps'],
}

async function bindPolicy(name: string, label: string, spec: Record<string, unknown>) {
  await create('/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: label, labels: { vap: label } },
  })
  await create(`${group}/validatingadmissionpolicies`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: { matchConstraints: { resourceRules: [configMapRule] }, ...spec },
  })
  await create(`${group}/validatingadmissionpolicybindings`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: `${name}-binding` },
    spec: {
      policyName: name,
      validationActions: ['Deny'],
      matchResources: { namespaceSelector: { matchLabels: { vap: label } } },
    },
  })
}

const put = (
  ns: string,
  data: Record<string, string>,
  headers: Record<string, string> = {},
  labels?: Record<string, string>,
) =>
  api(
    'POST',
    `/api/v1/namespaces/${ns}/configmaps`,
    configMap(`cm-${crypto.randomUUID().slice(0, 8)}`, data, labels),
    'application/json',
    headers,
  )

describe('ValidatingAdmissionPolicy with the Kubernetes CEL libraries', () => {
  it("accepts the Kubernetes docs' ServiceCIDR policy, whose expression calls cidr()", async () => {
    const created = await create(`${group}/validatingadmissionpolicies`, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'servicecidrs.default' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ['networking.k8s.io'],
              apiVersions: ['v1'],
              operations: ['CREATE', 'UPDATE'],
              resources: ['servicecidrs'],
            },
          ],
        },
        matchConditions: [
          {
            name: 'exclude-default-servicecidr',
            expression: "object.metadata.name != 'kubernetes'",
          },
        ],
        variables: [{ name: 'allowed', expression: "['10.96.0.0/16','2001:db8::/64']" }],
        validations: [
          {
            expression:
              'object.spec.cidrs.all(newCIDR, variables.allowed.exists(allowedCIDR, cidr(allowedCIDR).containsCIDR(newCIDR)))',
          },
        ],
      },
    })
    expect(created.metadata.name).toBe('servicecidrs.default')
  })

  it('refuses and admits by cidr, ip, quantity, url, sets and format', async () => {
    await bindPolicy('net-and-units.example.com', 'vap-libs', {
      variables: [{ name: 'allowed', expression: "['10.96.0.0/16', '2001:db8::/64']" }],
      validations: [
        {
          expression:
            "!has(object.data.cidrs) || object.data.cidrs.split(',').all(c, variables.allowed.exists(a, cidr(a).containsCIDR(c)))",
          message: 'cidrs must be inside the allowed ranges',
        },
        {
          expression:
            '!has(object.data.gateway) || (isIP(object.data.gateway) && ip(object.data.gateway).family() == 4 && !ip(object.data.gateway).isLoopback())',
          message: 'gateway must be an IPv4 address other than loopback',
        },
        {
          expression:
            "!has(object.data.memory) || (isQuantity(object.data.memory) && quantity(object.data.memory).isLessThan(quantity('1Gi')))",
          messageExpression: "'memory ' + object.data.memory + ' is not under 1Gi'",
        },
        {
          expression:
            "!has(object.data.endpoint) || (isURL(object.data.endpoint) && url(object.data.endpoint).getScheme() == 'https')",
          message: 'endpoint must be an https URL',
        },
        {
          expression:
            "!has(object.data.tiers) || sets.contains(['dev', 'staging', 'prod'], object.data.tiers.split(','))",
          message: 'unknown tier',
        },
        {
          expression:
            '!has(object.data.host) || !format.dns1123Subdomain().validate(object.data.host).hasValue()',
          messageExpression:
            "format.dns1123Subdomain().validate(object.data.host).value().join(', ')",
        },
      ],
    })
    const refused = async (data: Record<string, string>, message: string) => {
      const res = await put('vap-libs', data)
      expect(res.status, JSON.stringify(data)).toBe(422)
      expect(res.json.message).toContain(
        `ValidatingAdmissionPolicy 'net-and-units.example.com' with binding 'net-and-units.example.com-binding' denied request: ${message}`,
      )
    }
    await refused({ cidrs: '10.96.0.0/24,10.97.0.0/24' }, 'cidrs must be inside the allowed ranges')
    await refused({ gateway: '127.0.0.1' }, 'gateway must be an IPv4 address other than loopback')
    await refused({ gateway: '2001:db8::1' }, 'gateway must be an IPv4 address other than loopback')
    await refused({ memory: '2Gi' }, 'memory 2Gi is not under 1Gi')
    await refused({ endpoint: 'http://example.com/' }, 'endpoint must be an https URL')
    await refused({ tiers: 'dev,qa' }, 'unknown tier')
    await refused(
      { host: 'Not_A_Host' },
      'a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters',
    )
    const ok = await put('vap-libs', {
      cidrs: '10.96.1.0/24,2001:db8::/80',
      gateway: '10.0.0.1',
      memory: '512Mi',
      endpoint: 'https://example.com:8443/hook',
      tiers: 'dev,prod',
      host: 'api.example.com',
    })
    expect(ok.status).toBe(201)
  })

  it("asks the cluster's RBAC through authorizer, for the requesting user", async () => {
    await bindPolicy('approval.example.com', 'vap-authz', {
      validations: [
        {
          expression:
            "object.metadata.?labels.?approved.orValue('') != 'true' || authorizer.group('').resource('configmaps').namespace(object.metadata.namespace).check('approve').allowed()",
          messageExpression: "request.userInfo.username + ' may not approve configmaps'",
          reason: 'Forbidden',
        },
        {
          expression: "authorizer.requestResource.check('create').allowed()",
          message: 'the request itself is authorized',
        },
      ],
    })
    // jane may create configmaps in the namespace, but not approve them.
    await create(`${rbac}/namespaces/vap-authz/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'writer', namespace: 'vap-authz' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }],
    })
    await create(`${rbac}/namespaces/vap-authz/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'jane-writes', namespace: 'vap-authz' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'writer' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
    })
    const asJane = { 'Impersonate-User': 'jane' }
    expect((await put('vap-authz', {}, asJane)).status).toBe(201)
    const refused = await put('vap-authz', {}, asJane, { approved: 'true' })
    expect(refused.status).toBe(403)
    expect(refused.json.message).toContain(
      "ValidatingAdmissionPolicy 'approval.example.com' with binding 'approval.example.com-binding' denied request: jane may not approve configmaps",
    )
    // The admin (system:masters) may.
    expect((await put('vap-authz', {}, {}, { approved: 'true' })).status).toBe(201)

    await create(`${rbac}/namespaces/vap-authz/roles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'approver', namespace: 'vap-authz' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['approve'] }],
    })
    await create(`${rbac}/namespaces/vap-authz/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'jane-approves', namespace: 'vap-authz' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'approver' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' }],
    })
    expect((await put('vap-authz', {}, asJane, { approved: 'true' })).status).toBe(201)
  })

  it("refuses, with upstream's message, webhook rules naming `*` beside a plain resource, and accepts Gatekeeper's", async () => {
    const config = (resources: string[]) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: `gatekeeper-${resources.length}` },
      webhooks: [
        {
          name: 'validation.gatekeeper.sh',
          clientConfig: {
            service: {
              namespace: 'gatekeeper-system',
              name: 'gatekeeper-webhook-service',
              path: '/v1/admit',
            },
          },
          rules: [
            { apiGroups: ['*'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources },
          ],
          // Gatekeeper's chart keeps its own namespace and the kubelet out with match conditions.
          matchConditions: [
            {
              name: 'exclude-gatekeeper-system',
              expression: "request.namespace != 'gatekeeper-system'",
            },
          ],
          namespaceSelector: {
            matchExpressions: [{ key: 'admission.gatekeeper.sh/ignore', operator: 'DoesNotExist' }],
          },
          failurePolicy: 'Ignore',
          sideEffects: 'None',
          admissionReviewVersions: ['v1', 'v1beta1'],
        },
      ],
    })
    const refused = await api(
      'POST',
      `${group}/validatingwebhookconfigurations`,
      config(['*', 'pods']),
    )
    expect(refused.status).toBe(422)
    expect(refused.json.message).toBe(
      `ValidatingWebhookConfiguration.admissionregistration.k8s.io "gatekeeper-2" is invalid: webhooks[0].rules[0].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources without subresources`,
    )
    const accepted = await api(
      'POST',
      `${group}/validatingwebhookconfigurations`,
      config([
        '*',
        'pods/ephemeralcontainers',
        'pods/exec',
        'pods/log',
        'pods/eviction',
        'pods/portforward',
        'pods/proxy',
        'pods/attach',
        'pods/binding',
        'deployments/scale',
      ]),
    )
    expect(accepted.status).toBe(201)
    expect(
      (await api('DELETE', `${group}/validatingwebhookconfigurations/gatekeeper-10`)).status,
    ).toBe(200)
  })
})
