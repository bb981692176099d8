import { describe, expect, it } from 'vitest'
import { api } from './helpers'

// A CustomResourceDefinition's x-kubernetes-validations rules, checked when the CRD is written and
// enforced on its custom resources, through the real API.

const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'
const crontabs = '/apis/rules.example.com/v1/namespaces/default/crontabs'

function crd(rules: unknown[]) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.rules.example.com' },
    spec: {
      group: 'rules.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  'x-kubernetes-validations': rules,
                  properties: {
                    replicas: { type: 'integer' },
                    maxReplicas: { type: 'integer' },
                    network: { type: 'string' },
                    memory: { type: 'string' },
                    owner: {
                      type: 'string',
                      'x-kubernetes-validations': [
                        { rule: 'self == oldSelf', message: 'owner is immutable' },
                      ],
                    },
                  },
                },
              },
            },
          },
        },
      ],
    },
  }
}

const crontab = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'rules.example.com/v1',
  kind: 'CronTab',
  metadata: { name },
  spec,
})

describe('x-kubernetes-validations', () => {
  it('refuses a CRD whose rule does not compile, naming the rule', async () => {
    const res = await api('POST', crds, crd([{ rule: 'self.replicas <=' }]))
    expect(res.status).toBe(422)
    expect(res.json.message).toContain(
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replicas <="',
    )
    expect(res.json.message).toContain('compilation failed: ERROR: <input>:')
  })

  it("holds custom resources to the rules, Kubernetes' CEL libraries included, and transition rules to updates", async () => {
    const rules = [
      {
        rule: 'self.replicas <= self.maxReplicas',
        messageExpression: "'replicas must be at most ' + string(self.maxReplicas)",
        fieldPath: '.replicas',
      },
      {
        rule: "!has(self.network) || cidr('10.0.0.0/8').containsCIDR(self.network)",
        message: 'network must be inside 10.0.0.0/8',
        reason: 'FieldValueForbidden',
      },
      {
        rule: "!has(self.memory) || quantity(self.memory).isLessThan(quantity('1Gi'))",
        message: 'memory must be under 1Gi',
      },
    ]
    expect((await api('POST', crds, crd(rules))).status).toBe(201)

    const tooMany = await api('POST', crontabs, crontab('a', { replicas: 6, maxReplicas: 5 }))
    expect(tooMany.status).toBe(422)
    expect(tooMany.json.message).toBe(
      'CronTab.rules.example.com "a" is invalid: spec.replicas: Invalid value: "object": replicas must be at most 5',
    )
    const network = await api(
      'POST',
      crontabs,
      crontab('b', { replicas: 1, maxReplicas: 5, network: '192.168.0.0/16' }),
    )
    expect(network.status).toBe(422)
    expect(network.json.message).toBe(
      'CronTab.rules.example.com "b" is invalid: spec: Forbidden: network must be inside 10.0.0.0/8',
    )
    const memory = await api(
      'POST',
      crontabs,
      crontab('c', { replicas: 1, maxReplicas: 5, memory: '2Gi' }),
    )
    expect(memory.json.message).toBe(
      'CronTab.rules.example.com "c" is invalid: spec: Invalid value: "object": memory must be under 1Gi',
    )

    const created = await api(
      'POST',
      crontabs,
      crontab('ok', {
        replicas: 2,
        maxReplicas: 5,
        network: '10.1.0.0/16',
        memory: '512Mi',
        owner: 'team-a',
      }),
    )
    expect(created.status).toBe(201)
    const moved = await api('PUT', `${crontabs}/ok`, {
      ...created.json,
      spec: { ...created.json.spec, owner: 'team-b' },
    })
    expect(moved.status).toBe(422)
    expect(moved.json.message).toBe(
      'CronTab.rules.example.com "ok" is invalid: spec.owner: Invalid value: "string": owner is immutable',
    )
    const scaled = await api('PUT', `${crontabs}/ok`, {
      ...created.json,
      spec: { ...created.json.spec, replicas: 3 },
    })
    expect(scaled.status).toBe(200)
    expect((await api('GET', `${crontabs}/ok`)).json.spec).toMatchObject({
      replicas: 3,
      owner: 'team-a',
    })
  })
})
