import { describe, expect, it } from 'vitest'
import { formatCause } from '../../../../src/apimachinery/field-errors'
import type { JSONSchemaProps } from '../../../../src/apis/crd/schema'
import { validateValidationRules } from '../../../../src/apis/crd/cel-rules'
import { validateAgainstSchema } from '../../../../src/apis/crd/validate'
import { createRuleCauses, transitionRuleCauses } from '../../../../src/apis/crd/cel-rule-eval'

// x-kubernetes-validations rules, as the Kubernetes docs' CronTab examples write them, with
// Kubernetes' CEL libraries inside.

const schema = (): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [
        {
          rule: 'self.minReplicas <= self.replicas',
          message: 'replicas should be greater than or equal to minReplicas.',
        },
        {
          rule: 'self.replicas <= self.maxReplicas',
          messageExpression:
            "'replicas should be smaller than or equal to maxReplicas ' + string(self.maxReplicas)",
          fieldPath: '.replicas',
        },
        {
          rule: "!has(self.cidr) || cidr('10.0.0.0/8').containsCIDR(self.cidr)",
          reason: 'FieldValueForbidden',
        },
        { rule: "!has(self.memory) || quantity(self.memory).compareTo(quantity('1Gi')) <= 0" },
      ],
      properties: {
        replicas: { type: 'integer' },
        minReplicas: { type: 'integer' },
        maxReplicas: { type: 'integer' },
        ratio: { type: 'number', 'x-kubernetes-validations': [{ rule: 'self < 1.0' }] },
        cidr: { type: 'string' },
        memory: { type: 'string' },
        host: {
          type: 'string',
          'x-kubernetes-validations': [
            {
              rule: '!format.dns1123Subdomain().validate(self).hasValue()',
              messageExpression: "format.dns1123Subdomain().validate(self).value().join(', ')",
            },
          ],
        },
        mode: {
          type: 'string',
          'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'Value is immutable' }],
        },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              port: {
                type: 'integer',
                'x-kubernetes-validations': [
                  { rule: 'self >= oldSelf', message: 'ports may only grow' },
                ],
              },
            },
          },
        },
        labels: {
          type: 'object',
          additionalProperties: {
            type: 'string',
            'x-kubernetes-validations': [{ rule: 'self.size() <= 5' }],
          },
        },
      },
    },
  },
})

const object = (spec: Record<string, unknown>) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name: 'c' },
  spec: { replicas: 2, minReplicas: 1, maxReplicas: 5, ...spec },
})
const causes = (spec: Record<string, unknown>) =>
  validateAgainstSchema(schema(), object(spec)).map(formatCause)

describe('x-kubernetes-validations on a custom resource', () => {
  it('admits an object every rule holds for', () => {
    expect(
      causes({
        ratio: 0.5,
        cidr: '10.1.0.0/16',
        memory: '512Mi',
        host: 'api.example.com',
        labels: { a: 'x' },
      }),
    ).toEqual([])
  })

  it("refuses with the rule's message, messageExpression, reason and fieldPath, in upstream's words", () => {
    expect(causes({ minReplicas: 3 })).toEqual([
      'spec: Invalid value: "object": replicas should be greater than or equal to minReplicas.',
    ])
    expect(causes({ replicas: 6, minReplicas: 1 })).toEqual([
      'spec.replicas: Invalid value: "object": replicas should be smaller than or equal to maxReplicas 5',
    ])
    expect(causes({ cidr: '192.168.0.0/16' })).toEqual([
      "spec: Forbidden: failed rule: !has(self.cidr) || cidr('10.0.0.0/8').containsCIDR(self.cidr)",
    ])
    expect(causes({ memory: '2Gi' })).toEqual([
      `spec: Invalid value: "object": failed rule: !has(self.memory) || quantity(self.memory).compareTo(quantity('1Gi')) <= 0`,
    ])
    expect(causes({ ratio: 1.5 })).toEqual([
      'spec.ratio: Invalid value: "number": failed rule: self < 1.0',
    ])
    expect(causes({ host: 'Not_A_Host' })[0]).toMatch(
      /^spec\.host: Invalid value: "string": a lowercase RFC 1123 subdomain must consist of/,
    )
    expect(causes({ labels: { a: 'toolong' } })).toEqual([
      'spec.labels[a]: Invalid value: "string": failed rule: self.size() <= 5',
    ])
  })

  it('reports an evaluation error against its rule', () => {
    const [cause] = causes({ cidr: 'not-a-cidr' })
    expect(cause).toContain(
      `spec: Invalid value: "object": network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("not-a-cidr"): no '/' evaluating rule: !has(self.cidr)`,
    )
  })

  it('leaves the rules unchecked on an object of the wrong types', () => {
    expect(causes({ replicas: 'two' }).at(-1)).toBe(
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    )
  })

  it('runs transition rules on updates only, where old values correlate', () => {
    const old = object({ mode: 'a', ports: [{ name: 'http', port: 80 }] })
    expect(causes({ mode: 'b' })).toEqual([])
    expect(
      transitionRuleCauses(
        schema(),
        old,
        object({ mode: 'b', ports: [{ name: 'http', port: 80 }] }),
      ).map(formatCause),
    ).toEqual(['spec.mode: Invalid value: "string": Value is immutable'])
    expect(
      transitionRuleCauses(
        schema(),
        old,
        object({
          mode: 'a',
          ports: [
            { name: 'http', port: 70 },
            { name: 'new', port: 1 },
          ],
        }),
      ).map(formatCause),
    ).toEqual(['spec.ports[0].port: Invalid value: "integer": ports may only grow'])
    expect(transitionRuleCauses(schema(), object({}), object({ mode: 'b' }))).toEqual([])
  })

  it('runs an optionalOldSelf rule on creates too, with oldSelf none', () => {
    const s = schema()
    s.properties!.spec!['x-kubernetes-validations']!.push({
      rule: 'oldSelf.hasValue() || self.replicas <= 3',
      message: 'start with at most 3 replicas',
      optionalOldSelf: true,
    })
    expect(createRuleCauses(s, object({ replicas: 4 })).map(formatCause)).toEqual([
      'spec: Invalid value: "object": start with at most 3 replicas',
    ])
    expect(createRuleCauses(s, object({ replicas: 3 }))).toEqual([])
    expect(transitionRuleCauses(s, object({ replicas: 1 }), object({ replicas: 4 }))).toEqual([])
    expect(validateAgainstSchema(s, object({ replicas: 4 }))).toEqual([])
  })
})

describe('x-kubernetes-validations on a CRD', () => {
  const at = 'spec.versions[0].schema.openAPIV3Schema'
  const check = (s: JSONSchemaProps) => validateValidationRules(s, at).map(formatCause)

  it("accepts the docs' rules and refuses what upstream refuses", () => {
    expect(check(schema())).toEqual([])
    const bad: JSONSchemaProps = {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.spec.replicas >' },
        { rule: "'text'" },
        { rule: '' },
        { rule: 'true', reason: 'Teapot' },
        { rule: 'true', optionalOldSelf: true },
        { rule: 'true', messageExpression: '1' },
      ],
      properties: {
        list: {
          type: 'array',
          items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] },
        },
      },
    }
    const out = check(bad)
    expect(out[0]).toBe(
      `${at}.x-kubernetes-validations[2].rule: Required value: rule is not specified`,
    )
    expect(out[1]).toBe(
      `${at}.x-kubernetes-validations[3].reason: Unsupported value: "Teapot": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    )
    expect(out).toHaveLength(3)
    // With the schema errors fixed, the rules are compiled.
    const compiled = check({
      ...bad,
      'x-kubernetes-validations': bad['x-kubernetes-validations']!.filter(
        (r) => r.rule && !r.reason,
      ),
    })
    expect(compiled[0]).toContain(
      `${at}.x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.spec.replicas >", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>: `,
    )
    expect(compiled[1]).toMatch(
      /x-kubernetes-validations\[1\]\.rule: Invalid value: .*: cel expression must evaluate to a bool$/,
    )
    expect(compiled[2]).toBe(
      `${at}.x-kubernetes-validations[2].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    )
    expect(compiled[3]).toMatch(
      /x-kubernetes-validations\[3\]\.messageExpression: Invalid value: .*: messageExpression must evaluate to a string$/,
    )
    expect(compiled[4]).toBe(
      `${at}.properties[list].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[list]`,
    )
  })
})
