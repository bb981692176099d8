import { describe, expect, it } from 'vitest'
import type { Env } from '../../../../src/env'
import type { KubeObject, Status } from '../../../../src/apimachinery/types'
import { formatCause } from '../../../../src/apimachinery/field-errors'
import {
  defaultWebhookConfiguration,
  validateWebhookConfiguration,
  type Webhook,
} from '../../../../src/apis/admissionregistration/webhook-configuration'
import { validateAdmissionPolicyObject } from '../../../../src/apis/admissionregistration/admission-policy'
import { matchConditionsAllow } from '../../../../src/admission/webhooks/match-conditions'
import { provideAdmissionAuthorizer } from '../../../../src/admission/policies/authorizer'
import type { CelRequest } from '../../../../src/admission/policies/cel-input'
import { authorize } from '../../../../src/api/authorization/authorize'
import { RbacPolicy } from '../../../../src/api/authorization/rbac'
import { podManifest } from '../../../helpers'

// Gatekeeper's ValidatingWebhookConfiguration names every resource and, beside it, the subresources it checks.
const gatekeeperResources = [
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
  'replicasets/scale',
  'statefulsets/scale',
  'replicationcontrollers/scale',
  'services/proxy',
  'nodes/proxy',
  'services/status',
]

const hook = (over: Partial<Webhook> = {}): Webhook => ({
  name: 'validation.gatekeeper.sh',
  clientConfig: {
    service: {
      namespace: 'gatekeeper-system',
      name: 'gatekeeper-webhook-service',
      path: '/v1/admit',
    },
  },
  rules: [
    {
      apiGroups: ['*'],
      apiVersions: ['*'],
      operations: ['CREATE', 'UPDATE'],
      resources: gatekeeperResources,
    },
  ],
  sideEffects: 'None',
  admissionReviewVersions: ['v1', 'v1beta1'],
  ...over,
})

function validate(...hooks: Webhook[]): string[] {
  const config = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'c' },
    webhooks: hooks,
  } as KubeObject
  defaultWebhookConfiguration('ValidatingWebhookConfiguration', config)
  return validateWebhookConfiguration('ValidatingWebhookConfiguration', config).map(formatCause)
}

const withResources = (resources: string[]) =>
  hook({ rules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources }] })

describe('webhook rules: resources', () => {
  it("accept `*` beside subresources, as Gatekeeper's manifest has it", () => {
    expect(validate(hook())).toEqual([])
    expect(validate(withResources(['*', '*/scale']))).toEqual([])
  })

  it("refuse `*` beside a plain resource, `*/*` beside anything, and overlapping wildcards, in upstream's words", () => {
    expect(validate(withResources(['*', 'pods']))).toEqual([
      `webhooks[0].rules[0].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources without subresources`,
    ])
    expect(validate(withResources(['*/*', 'pods/exec']))).toEqual([
      `webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "pods/exec"}: if '*/*' is present, must not specify other resources`,
    ])
    expect(validate(withResources(['pods/*', 'pods/exec']))).toEqual([
      `webhooks[0].rules[0].resources[1]: Invalid value: "pods/exec": if 'pods/*' is present, must not specify pods/exec`,
    ])
    expect(validate(withResources(['*/scale', 'deployments/scale']))).toEqual([
      `webhooks[0].rules[0].resources[1]: Invalid value: "deployments/scale": if '*/scale' is present, must not specify deployments/scale`,
    ])
    expect(validate(withResources(['pods', '']))).toEqual([
      'webhooks[0].rules[0].resources[1]: Required value',
    ])
    expect(validate(withResources([]))).toEqual(['webhooks[0].rules[0].resources: Required value'])
  })

  it('hold ValidatingAdmissionPolicy resource rules to the same check', () => {
    const policy = (resources: string[]) =>
      validateAdmissionPolicyObject('ValidatingAdmissionPolicy', {
        metadata: { name: 'p' },
        spec: {
          failurePolicy: 'Fail',
          matchConstraints: {
            resourceRules: [
              { apiGroups: ['*'], apiVersions: ['*'], operations: ['CREATE'], resources },
            ],
          },
          validations: [{ expression: 'true' }],
        },
      } as KubeObject).map(formatCause)
    expect(policy(gatekeeperResources)).toEqual([])
    expect(policy(['*', 'pods'])).toEqual([
      `spec.matchConstraints.resourceRules[0].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources without subresources`,
    ])
  })
})

describe('webhook matchConditions: validation', () => {
  const condition = (name: string, expression: string) => ({ name, expression })

  it('accepts conditions that compile, naming object, oldObject, request and authorizer', () => {
    expect(
      validate(
        hook({
          matchConditions: [
            condition(
              'exclude-leases',
              "!(request.resource.group == 'coordination.k8s.io' && request.resource.resource == 'leases')",
            ),
            condition('exclude-kubelet-requests', "!('system:nodes' in request.userInfo.groups)"),
            condition(
              'rbac',
              "!authorizer.group('admissionregistration.k8s.io').resource('validatingwebhookconfigurations').name('my-webhook.example.com').check('breakglass').allowed()",
            ),
            condition(
              'own-resource',
              "authorizer.requestResource.check('update').allowed() || object == null || oldObject != null",
            ),
          ],
        }),
      ),
    ).toEqual([])
  })

  it("refuses too many, duplicate or invalid names, empty expressions and ones that do not compile, in upstream's words", () => {
    const many = Array.from({ length: 65 }, (_, i) => condition(`c${i}`, 'true'))
    expect(validate(hook({ matchConditions: many }))).toEqual([
      'webhooks[0].matchConditions: Too many: 65: must have at most 64 items',
    ])
    const causes = validate(
      hook({
        matchConditions: [
          condition('a', 'true'),
          condition('a', 'true'),
          condition('not a name!', 'true'),
          condition('', ' '),
          condition('b', 'params.x'),
          condition('c', "'not a bool'"),
        ],
      }),
    )
    expect(causes[0]).toBe('webhooks[0].matchConditions[1].name: Duplicate value: "a"')
    expect(causes[1]).toMatch(
      /^webhooks\[0\]\.matchConditions\[2\]\.name: Invalid value: "not a name!": name part must consist of alphanumeric characters/,
    )
    expect(causes.slice(2, 4)).toEqual([
      'webhooks[0].matchConditions[3].expression: Required value',
      'webhooks[0].matchConditions[3].name: Required value',
    ])
    expect(causes[4]).toMatch(
      /^webhooks\[0\]\.matchConditions\[4\]\.expression: Invalid value: "params.x": compilation failed: ERROR: <input>: /,
    )
    expect(causes[5]).toMatch(
      /^webhooks\[0\]\.matchConditions\[5\]\.expression: Invalid value: "'not a bool'": compilation failed: .*must evaluate to bool/,
    )
    expect(causes).toHaveLength(6)
  })
})

describe('webhook matchConditions: evaluation', () => {
  const env = {} as Env
  const labelled = (labels: Record<string, string>): KubeObject =>
    podManifest('web', { namespace: 'team', labels })
  const request = (object: KubeObject, username = 'jane'): CelRequest => ({
    attributes: {
      operation: 'CREATE',
      group: '',
      version: 'v1',
      resource: 'pods',
      subresource: '',
      namespaced: true,
      namespace: 'team',
    },
    kind: { group: '', version: 'v1', kind: 'Pod' },
    name: 'web',
    object,
    user: { username, groups: ['system:authenticated'] },
    dryRun: false,
  })
  const conditions = (...expressions: string[]) =>
    expressions.map((expression, i) => ({ name: `c${i}`, expression }))

  it('calls the webhook when all are true and skips it when any is false, even beside an error', async () => {
    const h = hook({
      matchConditions: conditions(
        "object.metadata.labels.app == 'web'",
        "request.userInfo.username != 'system:admin'",
      ),
    })
    expect(await matchConditionsAllow(env, h, request(labelled({ app: 'web' })))).toBe('call')
    expect(await matchConditionsAllow(env, h, request(labelled({ app: 'db' })))).toBe('skip')
    expect(
      await matchConditionsAllow(env, h, request(labelled({ app: 'web' }), 'system:admin')),
    ).toBe('skip')
    const erring = hook({
      matchConditions: conditions(
        'object.metadata.labels.missing == "x"',
        "object.metadata.labels.app == 'web'",
      ),
    })
    expect(await matchConditionsAllow(env, erring, request(labelled({ app: 'db' })))).toBe('skip')
  })

  it('meets failurePolicy on an error: Fail refuses the request with 403, Ignore skips the webhook', async () => {
    const erring = conditions("object.metadata.labels.missing == 'x'")
    const refused = (await matchConditionsAllow(
      env,
      hook({ failurePolicy: 'Fail', matchConditions: erring }),
      request(labelled({ app: 'web' })),
    )) as Status
    expect(refused).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: `pods "web" is forbidden: expression 'object.metadata.labels.missing == 'x'' resulted in error: no such key: missing`,
      details: { name: 'web', kind: 'pods' },
    })
    expect(
      await matchConditionsAllow(
        env,
        hook({ failurePolicy: 'Ignore', matchConditions: erring }),
        request(labelled({ app: 'web' })),
      ),
    ).toBe('skip')
  })

  it("asks the cluster's authorizer about the requesting user", async () => {
    const rbac = 'rbac.authorization.k8s.io'
    const policy = new RbacPolicy({
      clusterRoles: [
        {
          apiVersion: `${rbac}/v1`,
          kind: 'ClusterRole',
          metadata: { name: 'skip-webhook' },
          rules: [
            {
              verbs: ['breakglass'],
              apiGroups: ['admissionregistration.k8s.io'],
              resources: ['validatingwebhookconfigurations'],
            },
          ],
        } as KubeObject,
      ],
      roles: [],
      roleBindings: [],
      clusterRoleBindings: [
        {
          apiVersion: `${rbac}/v1`,
          kind: 'ClusterRoleBinding',
          metadata: { name: 'ops' },
          roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'skip-webhook' },
          subjects: [{ kind: 'User', apiGroup: rbac, name: 'ops' }],
        } as KubeObject,
      ],
    })
    provideAdmissionAuthorizer(
      async () => (user, attributes) => authorize(user, attributes, policy),
    )
    const h = hook({
      matchConditions: conditions(
        "!authorizer.group('admissionregistration.k8s.io').resource('validatingwebhookconfigurations').check('breakglass').allowed()",
      ),
    })
    expect(await matchConditionsAllow(env, h, request(labelled({}), 'jane'))).toBe('call')
    expect(await matchConditionsAllow(env, h, request(labelled({}), 'ops'))).toBe('skip')
  })
})
