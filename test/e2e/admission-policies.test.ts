import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectlOn } from './helpers/kubectl'
import { stream, type Manifest } from './helpers/manifests'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// ValidatingAdmissionPolicy as the Kubernetes docs page "Validating Admission Policy" walks
// through it, with the real kubectl: the replicas example, a Warn binding, params from a ConfigMap
// and from a custom resource, and a policy holding a controller's writes too.

let server: TestServer
const { run, ok } = kubectlOn(() => server.kubeconfig)

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.dispose()
})

const deploymentRule = {
  apiGroups: ['apps'],
  apiVersions: ['v1'],
  operations: ['CREATE', 'UPDATE'],
  resources: ['deployments'],
}

const policy = (name: string, spec: Record<string, unknown>): Manifest => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec,
})
const binding = (name: string, spec: Record<string, unknown>): Manifest => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name },
  spec,
})

function deployment(name: string, namespace: string, replicas: number): Manifest {
  const labels = { app: name }
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } },
    },
  }
}

async function namespace(name: string, labels: Record<string, string> = {}) {
  await ok(['create', 'namespace', name])
  for (const [k, v] of Object.entries(labels)) await ok(['label', 'namespace', name, `${k}=${v}`])
}

describe('ValidatingAdmissionPolicy with kubectl', () => {
  it('is listed by api-resources as upstream lists it, and printed with its columns', async () => {
    const res = await ok([
      'api-resources',
      '--api-group=admissionregistration.k8s.io',
      '-o',
      'wide',
    ])
    expect(res.stdout).toMatch(
      /^validatingadmissionpolicies\s+admissionregistration\.k8s\.io\/v1\s+false\s+ValidatingAdmissionPolicy\s+create,delete,deletecollection,get,list,patch,update,watch\s+api-extensions$/m,
    )
    expect(res.stdout).toMatch(
      /^validatingadmissionpolicybindings\s+admissionregistration\.k8s\.io\/v1\s+false\s+ValidatingAdmissionPolicyBinding\s+create,delete,deletecollection,get,list,patch,update,watch\s+api-extensions$/m,
    )
  })

  it("refuses the docs example's 6-replica Deployment in the bound namespace with upstream's message", async () => {
    await namespace('test', { environment: 'test' })
    await namespace('dev')
    await ok(
      ['apply', '-f', '-'],
      stream(
        policy('demo-policy.example.com', {
          failurePolicy: 'Fail',
          matchConstraints: { resourceRules: [deploymentRule] },
          validations: [{ expression: 'object.spec.replicas <= 5' }],
        }),
        binding('demo-binding-test.example.com', {
          policyName: 'demo-policy.example.com',
          validationActions: ['Deny'],
          matchResources: { namespaceSelector: { matchLabels: { environment: 'test' } } },
        }),
      ),
    )
    const table = await ok(['get', 'validatingadmissionpolicies'])
    expect(table.stdout).toMatch(/^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE\n/)
    expect(table.stdout).toMatch(/^demo-policy\.example\.com\s+1\s+<unset>\s+/m)
    expect((await ok(['get', 'validatingadmissionpolicybindings'])).stdout).toMatch(
      /^demo-binding-test\.example\.com\s+demo-policy\.example\.com\s+<unset>\s+/m,
    )

    const refused = await run(['apply', '-f', '-'], stream(deployment('nginx', 'test', 6)))
    expect(refused.code).not.toBe(0)
    // kubectl prints a 422 Invalid status from its causes: the docs page shows this very line.
    expect(refused.stderr).toContain(
      `The deployments "nginx" is invalid: : ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5`,
    )
    expect((await run(['get', 'deployment', 'nginx', '-n', 'test'])).code).not.toBe(0)
    await ok(['apply', '-f', '-'], stream(deployment('nginx', 'dev', 6)))
    await ok(['apply', '-f', '-'], stream(deployment('nginx', 'test', 5)))
    const scaled = await run(['scale', 'deployment', 'nginx', '-n', 'test', '--replicas=6'])
    // The scale subresource is not the `deployments` resource the rule names, as upstream.
    expect(scaled.code).toBe(0)
    const edited = await run([
      'patch',
      'deployment',
      'nginx',
      '-n',
      'test',
      '-p',
      '{"spec":{"replicas":7}}',
    ])
    expect(edited.code).not.toBe(0)
    expect(edited.stderr).toContain('denied request: failed expression: object.spec.replicas <= 5')
  })

  it("prints a Warn binding's failure as a warning and admits the object", async () => {
    await namespace('warned', { policy: 'warn' })
    await ok(
      ['apply', '-f', '-'],
      stream(
        policy('warn-policy.example.com', {
          matchConstraints: { resourceRules: [deploymentRule] },
          validations: [
            {
              expression:
                "object.spec.template.spec.containers.all(c, !c.image.endsWith(':latest') && c.image.contains(':'))",
              message: 'images must name a tag other than latest',
            },
          ],
        }),
        binding('warn-binding.example.com', {
          policyName: 'warn-policy.example.com',
          validationActions: ['Warn'],
          matchResources: { namespaceSelector: { matchLabels: { policy: 'warn' } } },
        }),
      ),
    )
    const res = await ok(['apply', '-f', '-'], stream(deployment('web', 'warned', 1)))
    expect(res.stderr).toContain(
      "Warning: Validation failed for ValidatingAdmissionPolicy 'warn-policy.example.com' with binding 'warn-binding.example.com': images must name a tag other than latest",
    )
    expect(res.stdout).toContain('deployment.apps/web created')
  })

  it('takes its limit from a ConfigMap param, and from a custom resource as the docs do', async () => {
    await namespace('limited', { limits: 'on' })
    await ok([
      'create',
      'configmap',
      'replica-limit',
      '-n',
      'limited',
      '--from-literal=maxReplicas=2',
    ])
    await ok(
      ['apply', '-f', '-'],
      stream(
        policy('configmap-limit.example.com', {
          paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
          matchConstraints: { resourceRules: [deploymentRule] },
          validations: [
            {
              expression: 'object.spec.replicas <= int(params.data.maxReplicas)',
              messageExpression:
                "'object.spec.replicas must be no greater than ' + params.data.maxReplicas",
              reason: 'Invalid',
            },
          ],
        }),
        binding('configmap-limit-binding.example.com', {
          policyName: 'configmap-limit.example.com',
          validationActions: ['Deny'],
          paramRef: { name: 'replica-limit', parameterNotFoundAction: 'Deny' },
          matchResources: { namespaceSelector: { matchLabels: { limits: 'on' } } },
        }),
      ),
    )
    const over = await run([
      'create',
      'deployment',
      'big',
      '-n',
      'limited',
      '--image=nginx',
      '--replicas=3',
    ])
    expect(over.code).not.toBe(0)
    expect(over.stderr).toContain(
      "ValidatingAdmissionPolicy 'configmap-limit.example.com' with binding 'configmap-limit-binding.example.com' denied request: object.spec.replicas must be no greater than 2",
    )
    await ok(['create', 'deployment', 'small', '-n', 'limited', '--image=nginx', '--replicas=2'])
    expect(
      (
        await ok([
          'get',
          'validatingadmissionpolicybindings',
          'configmap-limit-binding.example.com',
        ])
      ).stdout,
    ).toMatch(/\*\/replica-limit/)

    // The docs' ReplicaLimit custom resource as the param kind, selected by label from the request's namespace.
    await ok(
      ['apply', '-f', '-'],
      stream({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'replicalimits.rules.example.com' },
        spec: {
          group: 'rules.example.com',
          scope: 'Namespaced',
          names: { plural: 'replicalimits', singular: 'replicalimit', kind: 'ReplicaLimit' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: { maxReplicas: { type: 'integer' } },
                },
              },
            },
          ],
        },
      }),
    )
    await ok([
      'wait',
      '--for=condition=Established',
      'crd/replicalimits.rules.example.com',
      '--timeout=30s',
    ])
    await namespace('crd-limited', { crdlimits: 'on' })
    await ok(
      ['apply', '-f', '-'],
      stream({
        apiVersion: 'rules.example.com/v1',
        kind: 'ReplicaLimit',
        metadata: { name: 'limit', namespace: 'crd-limited', labels: { tier: 'small' } },
        maxReplicas: 3,
      }),
    )
    await ok(
      ['apply', '-f', '-'],
      stream(
        policy('replicalimit-policy.example.com', {
          paramKind: { apiVersion: 'rules.example.com/v1', kind: 'ReplicaLimit' },
          matchConstraints: { resourceRules: [deploymentRule] },
          validations: [
            {
              expression: 'object.spec.replicas <= params.maxReplicas',
              messageExpression:
                "'object.spec.replicas must be no greater than ' + string(params.maxReplicas)",
            },
          ],
        }),
        binding('replicalimit-binding.example.com', {
          policyName: 'replicalimit-policy.example.com',
          validationActions: ['Deny'],
          paramRef: {
            selector: { matchLabels: { tier: 'small' } },
            parameterNotFoundAction: 'Allow',
          },
          matchResources: { namespaceSelector: { matchLabels: { crdlimits: 'on' } } },
        }),
      ),
    )
    const crdOver = await run([
      'create',
      'deployment',
      'big',
      '-n',
      'crd-limited',
      '--image=nginx',
      '--replicas=4',
    ])
    expect(crdOver.code).not.toBe(0)
    expect(crdOver.stderr).toContain(
      'denied request: object.spec.replicas must be no greater than 3',
    )
    await ok(['delete', 'replicalimit', 'limit', '-n', 'crd-limited'])
    // parameterNotFoundAction Allow: with no param selected, nothing is evaluated.
    await ok(['create', 'deployment', 'big', '-n', 'crd-limited', '--image=nginx', '--replicas=4'])
  })

  it("holds a controller's writes too: a ReplicaSet's pods the policy refuses are never created", async () => {
    await namespace('guarded', { pods: 'guarded' })
    await ok(
      ['apply', '-f', '-'],
      stream(
        policy('pod-policy.example.com', {
          matchConstraints: {
            resourceRules: [
              { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] },
            ],
          },
          validations: [
            {
              expression: "object.metadata.labels.app != 'blocked'",
              message: 'app=blocked pods are refused',
            },
          ],
        }),
        binding('pod-binding.example.com', {
          policyName: 'pod-policy.example.com',
          validationActions: ['Deny'],
          matchResources: { namespaceSelector: { matchLabels: { pods: 'guarded' } } },
        }),
      ),
    )
    const rs = (app: string): Manifest => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: app, namespace: 'guarded' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app } },
        template: {
          metadata: { labels: { app } },
          spec: { containers: [{ name: 'main', image: 'busybox' }] },
        },
      },
    })
    await ok(['apply', '-f', '-'], stream(rs('blocked'), rs('allowed')))
    await waitFor(
      async () =>
        (
          await ok(['get', 'pods', '-n', 'guarded', '-l', 'app=allowed', '-o', 'name'])
        ).stdout.trim() !== '',
      { what: "the allowed ReplicaSet's pod", timeoutMs: 30_000 },
    )
    const failed = await waitFor(
      async () => {
        const res = await ok([
          'get',
          'replicaset',
          'blocked',
          '-n',
          'guarded',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="ReplicaFailure")].reason}',
        ])
        return res.stdout.trim() === 'FailedCreate' ? res.stdout : undefined
      },
      { what: "the blocked ReplicaSet's ReplicaFailure condition", timeoutMs: 30_000 },
    )
    expect(failed).toBeTruthy()
    expect(
      (await ok(['get', 'pods', '-n', 'guarded', '-l', 'app=blocked', '-o', 'name'])).stdout.trim(),
    ).toBe('')
  })
})
