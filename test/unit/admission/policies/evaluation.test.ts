import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import type {
  AdmissionPolicy,
  MatchResources,
} from '../../../../src/apis/admissionregistration/admission-policy'
import {
  defaultAdmissionPolicyObject,
  validateAdmissionPolicyObject,
} from '../../../../src/apis/admissionregistration/admission-policy'
import {
  compileExpression,
  evaluateExpression,
  policyScope,
  toCel,
} from '../../../../src/apis/admissionregistration/cel'
import { compilePolicy } from '../../../../src/admission/policies/configurations'
import { evaluatePolicy } from '../../../../src/admission/policies/evaluate'
import {
  policyMayApplyIn,
  resourcesMatch,
  type MatchRequest,
} from '../../../../src/admission/policies/match'
import type { RuleAttributes } from '../../../../src/admission/webhooks/match'

const deployments: RuleAttributes = {
  operation: 'CREATE',
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  subresource: '',
  namespaced: true,
  namespace: 'team',
}
const deployment = (replicas: number, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'team', labels },
  spec: { replicas },
})
const rule = {
  operations: ['CREATE', 'UPDATE'],
  apiGroups: ['apps'],
  apiVersions: ['v1'],
  resources: ['deployments'],
}

function policy(spec: AdmissionPolicy['spec']): AdmissionPolicy {
  const p: AdmissionPolicy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p' },
    spec,
  }
  defaultAdmissionPolicyObject('ValidatingAdmissionPolicy', p)
  return p
}

const evaluate = (
  spec: AdmissionPolicy['spec'],
  object: KubeObject,
  extra: Record<string, unknown> = {},
) =>
  evaluatePolicy(compilePolicy(policy(spec), []), {
    object: toCel(object),
    oldObject: null,
    request: toCel({ operation: 'CREATE', name: 'web', namespace: 'team' }),
    namespaceObject: null,
    params: null,
    ...extra,
  })

describe('ValidatingAdmissionPolicy matching', () => {
  const request = (over: Partial<MatchRequest> = {}): MatchRequest => ({
    attributes: deployments,
    name: 'web',
    object: deployment(1, { tier: 'front' }),
    namespaceLabels: { environment: 'test' },
    ...over,
  })

  it('matches by rule, resource name, namespace and object selectors; excluded rules win', () => {
    const match: MatchResources = {
      resourceRules: [rule],
      namespaceSelector: { matchLabels: { environment: 'test' } },
      objectSelector: {},
    }
    expect(resourcesMatch(match, request())).toBe(true)
    expect(resourcesMatch(match, request({ namespaceLabels: { environment: 'prod' } }))).toBe(false)
    expect(
      resourcesMatch(match, request({ attributes: { ...deployments, operation: 'DELETE' } })),
    ).toBe(false)
    expect(
      resourcesMatch(match, request({ attributes: { ...deployments, resource: 'replicasets' } })),
    ).toBe(false)
    expect(
      resourcesMatch({ ...match, objectSelector: { matchLabels: { tier: 'back' } } }, request()),
    ).toBe(false)
    expect(
      resourcesMatch(
        { ...match, excludeResourceRules: [{ ...rule, resourceNames: ['web'] }] },
        request(),
      ),
    ).toBe(false)
    expect(
      resourcesMatch(
        { ...match, excludeResourceRules: [{ ...rule, resourceNames: ['other'] }] },
        request(),
      ),
    ).toBe(true)
    expect(
      resourcesMatch({ resourceRules: [{ ...rule, resourceNames: ['other'] }] }, request()),
    ).toBe(false)
    // A binding without rules meets everything its selectors allow.
    expect(
      resourcesMatch({ namespaceSelector: { matchLabels: { environment: 'test' } } }, request()),
    ).toBe(true)
  })

  it('a cluster-scoped object passes any namespace selector; scope narrows a rule', () => {
    const nodes: RuleAttributes = {
      operation: 'CREATE',
      group: '',
      version: 'v1',
      resource: 'nodes',
      subresource: '',
      namespaced: false,
      namespace: '',
    }
    const nodeRule = {
      operations: ['*'],
      apiGroups: [''],
      apiVersions: ['v1'],
      resources: ['nodes'],
    }
    const r = request({
      attributes: nodes,
      name: 'n1',
      object: { metadata: { name: 'n1' } },
      namespaceLabels: undefined,
    })
    expect(
      resourcesMatch(
        { resourceRules: [nodeRule], namespaceSelector: { matchLabels: { environment: 'test' } } },
        r,
      ),
    ).toBe(true)
    expect(resourcesMatch({ resourceRules: [{ ...nodeRule, scope: 'Namespaced' }] }, r)).toBe(false)
  })
  it("is passed over before the object is read when no binding selects the request's namespace", () => {
    const p = (bindingSelector?: Record<string, string>) =>
      compilePolicy(
        policy({
          matchConstraints: { resourceRules: [rule] },
          validations: [{ expression: 'true' }],
        }),
        [
          {
            metadata: { name: 'b' },
            spec: {
              policyName: 'p',
              validationActions: ['Deny'],
              ...(bindingSelector
                ? { matchResources: { namespaceSelector: { matchLabels: bindingSelector } } }
                : {}),
            },
          },
        ],
      )
    expect(policyMayApplyIn(p({ environment: 'test' }), deployments, { environment: 'test' })).toBe(
      true,
    )
    expect(policyMayApplyIn(p({ environment: 'test' }), deployments, { environment: 'prod' })).toBe(
      false,
    )
    expect(policyMayApplyIn(p(), deployments, {})).toBe(true)
  })
})

describe('ValidatingAdmissionPolicy evaluation', () => {
  const replicas = {
    matchConstraints: { resourceRules: [rule] },
    validations: [{ expression: 'object.spec.replicas <= 5' }],
  }

  it('denies with the expression when no message is given, and admits what passes', () => {
    expect(evaluate(replicas, deployment(6))).toEqual([
      { deny: true, reason: 'Invalid', message: 'failed expression: object.spec.replicas <= 5' },
    ])
    expect(evaluate(replicas, deployment(5))).toEqual([])
  })

  it('uses messageExpression, then message; the reason is kept', () => {
    const spec = {
      ...replicas,
      validations: [
        {
          expression: 'object.spec.replicas <= 5',
          messageExpression: "'replicas must be at most 5, not ' + string(object.spec.replicas)",
          message: 'too many',
          reason: 'Forbidden',
        },
        {
          expression: 'object.spec.replicas < 3',
          messageExpression: "object.metadata.name + '\\nsecond line'",
          message: 'fewer than three',
        },
      ],
    }
    expect(evaluate(spec, deployment(6))).toEqual([
      { deny: true, reason: 'Forbidden', message: 'replicas must be at most 5, not 6' },
      { deny: true, reason: 'Invalid', message: 'fewer than three' },
    ])
  })

  it('computes variables, which may name earlier ones, and params', () => {
    const spec = {
      ...replicas,
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      variables: [
        { name: 'max', expression: 'int(params.data.maxReplicas)' },
        { name: 'over', expression: 'object.spec.replicas > variables.max' },
      ],
      validations: [
        { expression: '!variables.over', messageExpression: "'at most ' + string(variables.max)" },
      ],
    }
    const params = toCel({ data: { maxReplicas: '3' } })
    expect(evaluate(spec, deployment(4), { params })).toEqual([
      { deny: true, reason: 'Invalid', message: 'at most 3' },
    ])
    expect(evaluate(spec, deployment(3), { params })).toEqual([])
  })

  it('skips the validations when a match condition is false', () => {
    const spec = {
      ...replicas,
      matchConditions: [
        {
          name: 'not-exempt',
          expression: "!has(object.metadata.labels) || !('exempt' in object.metadata.labels)",
        },
      ],
    }
    expect(evaluate(spec, deployment(6, { exempt: 'yes' }))).toEqual([])
    expect(evaluate(spec, deployment(6))).toHaveLength(1)
    // An erroring condition meets the failurePolicy unless another is false.
    const erroring = {
      ...replicas,
      matchConditions: [
        { name: 'paused', expression: 'object.spec.paused' },
        { name: 'big', expression: 'object.spec.replicas > 10' },
      ],
    }
    expect(evaluate(erroring, deployment(6))).toEqual([])
    const [denied] = evaluate(erroring, deployment(11))
    expect(denied!.message).toMatch(/^expression 'object.spec.paused' resulted in error: /)
    expect(evaluate({ ...erroring, failurePolicy: 'Ignore' }, deployment(11))).toEqual([])
  })

  it('an evaluation error denies under failurePolicy Fail and is ignored under Ignore', () => {
    const spec = { ...replicas, validations: [{ expression: 'object.spec.paused == false' }] }
    const [decision] = evaluate(spec, deployment(1))
    expect(decision).toMatchObject({ deny: true })
    expect(decision!.message).toBe(
      "expression 'object.spec.paused == false' resulted in error: no such key: paused",
    )
    expect(evaluate({ ...spec, failurePolicy: 'Ignore' }, deployment(1))).toEqual([])
  })

  it("stops once the policy's expressions together spend the runtime cost budget", () => {
    const costly =
      'object.metadata.labels.all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, f > 0))))))'
    const labels = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`l${i}`, 'x']))
    const spec = {
      ...replicas,
      validations: Array.from({ length: 12 }, () => ({ expression: costly })),
    }
    const decisions = evaluate(spec, deployment(1, labels))
    expect(
      decisions.map((d) => d.message.replace(/^expression '.*' resulted in error: /, '')),
    ).toEqual([
      ...Array.from({ length: 10 }, () => 'operation cancelled: actual cost limit exceeded'),
      'validation failed due to running out of cost budget, no further validation rules will be run',
    ])
    expect(evaluate({ ...spec, failurePolicy: 'Ignore' }, deployment(1, labels))).toEqual([])
  })
})

describe('ValidatingAdmissionPolicy validation', () => {
  it('refuses an expression that does not compile, and an authorizer check on a group rather than a resource', () => {
    const causes = validateAdmissionPolicyObject(
      'ValidatingAdmissionPolicy',
      policy({
        matchConstraints: { resourceRules: [rule] },
        validations: [
          { expression: 'object.spec.replicas <=' },
          { expression: "authorizer.group('apps').check('get').allowed()" },
          { expression: "authorizer.group('apps').resource('deployments').check('get').allowed()" },
        ],
      }),
    )
    expect(causes.map((c) => c.field)).toEqual([
      'spec.validations[0].expression',
      'spec.validations[1].expression',
    ])
    expect(causes[0]!.message).toMatch(/compilation failed: ERROR: <input>: /)
    expect(causes[1]!.message).toMatch(/compilation failed: ERROR: <input>: .*check/)
  })

  it('gives a messageExpression no authorizer, as upstream', () => {
    const causes = validateAdmissionPolicyObject(
      'ValidatingAdmissionPolicy',
      policy({
        matchConstraints: { resourceRules: [rule] },
        validations: [
          {
            expression: 'true',
            messageExpression: "authorizer.requestResource.check('get').reason()",
          },
        ],
      }),
    )
    expect(causes.map((c) => c.field)).toEqual(['spec.validations[0].messageExpression'])
  })

  it('requires match constraints and a validation, and checks reasons and binding actions', () => {
    const fields = (kind: string, spec: unknown) =>
      validateAdmissionPolicyObject(kind, { metadata: { name: 'x' }, spec } as KubeObject).map(
        (c) => `${c.reason} ${c.field}`,
      )
    expect(fields('ValidatingAdmissionPolicy', {})).toEqual([
      'FieldValueRequired spec.failurePolicy',
      'FieldValueRequired spec.matchConstraints',
      'FieldValueRequired spec.validations',
      'FieldValueRequired spec.auditAnnotations',
    ])
    // params is declared only for a policy with a paramKind.
    expect(
      fields('ValidatingAdmissionPolicy', {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [rule] },
        validations: [{ expression: 'params.max > 1' }],
      }),
    ).toEqual(['FieldValueInvalid spec.validations[0].expression'])
    expect(
      fields('ValidatingAdmissionPolicy', {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: [rule] },
        validations: [{ expression: 'true', reason: 'Teapot' }],
      }),
    ).toEqual(['FieldValueNotSupported spec.validations[0].reason'])
    expect(fields('ValidatingAdmissionPolicyBinding', { policyName: 'p' })).toEqual([
      'FieldValueRequired spec.validationActions',
    ])
    expect(
      fields('ValidatingAdmissionPolicyBinding', {
        policyName: 'p',
        validationActions: ['Deny', 'Warn'],
        paramRef: { name: 'a', selector: {} },
      }),
    ).toEqual([
      'FieldValueForbidden spec.paramRef.name',
      'FieldValueForbidden spec.paramRef.selector',
      'FieldValueRequired spec.paramRef.parameterNotFoundAction',
      'FieldValueInvalid spec.validationActions',
    ])
  })
})

describe("Kubernetes' CEL library functions", () => {
  const value = (expression: string, object: unknown = {}) => {
    const compiled = compileExpression(expression, 'any', policyScope(false))
    if (!compiled.ok) throw new Error(compiled.error)
    const result = evaluateExpression(compiled.program, expression, {
      object: toCel(object),
      oldObject: null,
      request: null,
      params: null,
      namespaceObject: null,
      variables: {},
    })
    if (!result.ok) throw new Error(result.error)
    return result.value
  }

  it('finds with RE2 regexes and edits strings', () => {
    expect(value("'image:v1.2 and v3.4'.find('v[0-9]+\\\\.[0-9]+')")).toBe('v1.2')
    expect(value("'image:v1.2 and v3.4'.findAll('v[0-9]+')")).toEqual(['v1', 'v3'])
    expect(value("'a1b2c3'.findAll('[0-9]', 2)")).toEqual(['1', '2'])
    expect(value("'abc'.find('z')")).toBe('')
    expect(value("'abc'.charAt(1) + 'abc'.reverse()")).toBe('bcba')
    expect(value("'a-b-c'.replace('-', '+') + ' ' + 'a-b-c'.replace('-', '+', 1)")).toBe(
      'a+b+c a+b-c',
    )
    expect(() => value("'a'.find('(')")).toThrow(/regex compilation failed/)
  })

  it('sums, orders and searches lists taken from objects', () => {
    const object = { spec: { ports: [80, 443, 8080], weights: [0.5, 1.5], names: ['b', 'a'] } }
    expect(value('object.spec.ports.sum()', object)).toBe(8603n)
    expect(value('object.spec.weights.sum()', object)).toBe(2)
    expect(
      value(
        'object.spec.ports.max() == 8080 && object.spec.ports.min() == 80 && object.spec.ports.isSorted()',
        object,
      ),
    ).toBe(true)
    expect(value("object.spec.names.isSorted() || object.spec.names.min() != 'a'", object)).toBe(
      false,
    )
    expect(value('object.spec.ports.indexOf(443) + object.spec.ports.lastIndexOf(1)', object)).toBe(
      0n,
    )
    expect(() => value('object.spec.empty.min()', { spec: { empty: [] } })).toThrow(
      /min called on empty list/,
    )
  })

  it('matches with RE2: a nested-quantifier pattern from params answers at once, lookarounds are refused', () => {
    const name = { metadata: { name: `${'a'.repeat(27)}!` } }
    const started = performance.now()
    expect(value("object.metadata.name.matches('^(a+)+$')", name)).toBe(false)
    expect(value("matches(object.metadata.name, '^(a+)+!$')", name)).toBe(true)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(value("'ABC'.matches('(?i)^abc$') && !'abc'.matches('^b')")).toBe(true)
    expect(
      compileExpression("object.metadata.name.matches('a(?=b)')", 'bool', policyScope(false)),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /^compilation failed: ERROR: <input>: .*invalid matches argument/,
      ),
    })
    expect(() =>
      value('object.metadata.name.matches(object.pattern)', {
        metadata: { name: 'ab' },
        pattern: 'a(?=b)',
      }),
    ).toThrow(/resulted in error: .*regex/)
    expect(() => value('object.n.matches(1)', { n: 'x' })).toThrow(/matches/)
  })

  it('cuts off an expression that exceeds the cost limit, whatever the operators around it', () => {
    const nested = `object.l.all(a, object.l.all(b, object.l.all(c, object.l.all(d, object.l.all(e, object.l.all(f, f >= 0))))))`
    const list = { l: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }
    expect(() => value(nested, list)).toThrow(
      `expression '${nested}' resulted in error: operation cancelled: actual cost limit exceeded`,
    )
    expect(() => value(`${nested} || true`, list)).toThrow(/actual cost limit exceeded/)
    expect(value('object.l.all(a, object.l.all(b, a + b >= 0))', list)).toBe(true)
    expect(() =>
      value(`[${'object.s, '.repeat(30)}object.s].map(x, x + x + x + x).join('').size() > 0`, {
        s: 'x'.repeat(100_000),
      }),
    ).toThrow(/actual cost limit exceeded/)
  })
})
