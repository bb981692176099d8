import { describe, it, expect } from 'vitest'
import type { JSONSchemaProps } from '../../../../src/apis/crd/schema'
import { applySchemaDefaults } from '../../../../src/apis/crd/defaults'
import { checkStructural } from '../../../../src/apis/crd/structural'
import { pruneUnknownFields } from '../../../../src/apis/crd/prune'
import { validateAgainstSchema } from '../../../../src/apis/crd/validate'
import {
  aggregateMessage,
  formatCause,
  toStatusCause,
} from '../../../../src/apimachinery/field-errors'
import { strictDecodingMessage } from '../../../../src/apis/schema/unknown-fields'

const widgetSchema = (): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', pattern: '^[0-9]+$', maxLength: 3, minLength: 2 },
        replicas: { type: 'integer', minimum: 0, maximum: 100 },
        ratio: {
          type: 'number',
          exclusiveMinimum: true,
          minimum: 0,
          exclusiveMaximum: true,
          maximum: 1,
        },
        size: { type: 'string', enum: ['a', 'b'] },
        level: { type: 'integer', enum: [1, 2] },
        port: { 'x-kubernetes-int-or-string': true },
        enabled: { type: 'boolean' },
        note: { type: 'string', nullable: true },
        tags: {
          type: 'array',
          items: { type: 'string' },
          minItems: 1,
          maxItems: 3,
          uniqueItems: true,
        },
        labels: {
          type: 'object',
          additionalProperties: { type: 'string', maxLength: 5 },
          minProperties: 1,
          maxProperties: 2,
        },
        items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
        raw: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { kept: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { image: { type: 'string' } } } },
        },
        uid: { type: 'string', format: 'uuid' },
        when: { type: 'string', format: 'date-time' },
        count: { type: 'integer', format: 'int32' },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
})

const widget = (spec: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'default' },
  spec: { name: '12', ...spec },
})

/** The messages kube-apiserver would list for the object. */
const messages = (spec: Record<string, unknown>, schema = widgetSchema()) =>
  validateAgainstSchema(schema, widget(spec)).map(formatCause)

describe('validateAgainstSchema', () => {
  it('accepts a valid object', () => {
    expect(
      messages({
        replicas: 3,
        ratio: 0.5,
        size: 'a',
        level: 2,
        port: 'http',
        tags: ['x', 'y'],
        labels: { a: 'b' },
        note: null,
      }),
    ).toEqual([])
    expect(
      messages({
        port: 8080,
        ratio: 0.25,
        uid: '123e4567-e89b-12d3-a456-426614174000',
        when: '2024-01-02T03:04:05Z',
      }),
    ).toEqual([])
  })

  it('reports wrong types with the type found', () => {
    expect(messages({ replicas: 'many' })).toEqual([
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ])
    expect(messages({ enabled: 'yes' })).toEqual([
      'spec.enabled: Invalid value: "string": spec.enabled in body must be of type boolean: "string"',
    ])
    expect(messages({ name: 12 })).toEqual([
      'spec.name: Invalid value: "integer": spec.name in body must be of type string: "integer"',
    ])
    expect(messages({ tags: 'x' })).toEqual([
      'spec.tags: Invalid value: "string": spec.tags in body must be of type array: "string"',
    ])
    expect(messages({ labels: ['a'] })).toEqual([
      'spec.labels: Invalid value: "array": spec.labels in body must be of type object: "array"',
    ])
    expect(messages({ ratio: 1.5e-5, replicas: 4 })).toEqual([])
  })

  it('reports a fraction for an integer twice, as the range check also fails', () => {
    expect(messages({ replicas: 1.5 })).toEqual([
      'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
      '<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.replicas',
    ])
  })

  it('reports null for a field that is not nullable', () => {
    expect(messages({ replicas: null })).toEqual([
      'spec.replicas: Invalid value: "null": spec.replicas in body must be of type integer: "null"',
    ])
    expect(messages({ note: null })).toEqual([])
  })

  it('accepts an int or a string for int-or-string, nothing else', () => {
    expect(messages({ port: 80 })).toEqual([])
    expect(messages({ port: true })).toEqual([
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    ])
  })

  it('reports required fields', () => {
    const obj = widget({})
    delete (obj.spec as Record<string, unknown>).name
    expect(validateAgainstSchema(widgetSchema(), obj).map(formatCause)).toEqual([
      'spec.name: Required value',
    ])
    const schema = widgetSchema()
    schema.required = ['spec']
    expect(
      validateAgainstSchema(schema, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: {},
      }).map(formatCause),
    ).toEqual(['spec: Required value'])
  })

  it('reports enums as unsupported values', () => {
    expect(messages({ size: 'x' })).toEqual([
      'spec.size: Unsupported value: "x": supported values: "a", "b"',
    ])
    expect(messages({ level: 3 })).toEqual([
      'spec.level: Unsupported value: 3: supported values: "1", "2"',
    ])
    expect(toStatusCause(validateAgainstSchema(widgetSchema(), widget({ size: 'x' }))[0]!)).toEqual(
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "x": supported values: "a", "b"',
        field: 'spec.size',
      },
    )
  })

  it('reports bounds of numbers', () => {
    expect(messages({ replicas: 200 })).toEqual([
      'spec.replicas: Invalid value: 200: spec.replicas in body should be less than or equal to 100',
    ])
    expect(messages({ replicas: -1 })).toEqual([
      'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
    ])
    expect(messages({ ratio: 1 })).toEqual([
      'spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1',
    ])
    expect(messages({ ratio: 0 })).toEqual([
      'spec.ratio: Invalid value: 0: spec.ratio in body should be greater than 0',
    ])
    expect(messages({ ratio: 2.5 })).toEqual([
      'spec.ratio: Invalid value: 2.5: spec.ratio in body should be less than 1',
    ])
  })

  it('reports lengths and patterns of strings, one problem per string', () => {
    expect(messages({ name: 'abc' })).toEqual([
      'spec.name: Invalid value: "abc": spec.name in body should match \'^[0-9]+$\'',
    ])
    expect(messages({ name: 'abcdef' })).toEqual([
      'spec.name: Too long: may not be more than 3 bytes',
    ])
    expect(messages({ name: '1' })).toEqual([
      'spec.name: Invalid value: "1": spec.name in body should be at least 2 chars long',
    ])
    expect(messages({ name: 'ééé' })).toEqual([
      'spec.name: Invalid value: "ééé": spec.name in body should match \'^[0-9]+$\'',
    ])
  })

  it('matches patterns with RE2: linear time, Go syntax and its errors', () => {
    const schema = (pattern: string): JSONSchemaProps => ({
      type: 'object',
      properties: { spec: { type: 'object', properties: { name: { type: 'string', pattern } } } },
    })
    // Catastrophic backtracking for a backtracking engine; RE2 answers at once.
    expect(messages({ name: 'a'.repeat(40) + '!' }, schema('^(a+)+$'))).toEqual([
      `spec.name: Invalid value: "${'a'.repeat(40)}!": spec.name in body should match '^(a+)+$'`,
    ])
    expect(messages({ name: 'a'.repeat(40) }, schema('^(a+)+$'))).toEqual([])
    expect(messages({ name: 'héllo' }, schema('^[[:alpha:]]+$'))).toHaveLength(1)
    expect(messages({ name: 'héllo' }, schema('^\\pL+$'))).toEqual([])
    expect(messages({ name: 'x' }, schema('(?=x)x'))).toEqual([
      'spec.name: Invalid value: "x": spec.name in body should match \'(?=x)x, but pattern is invalid: error parsing regexp: invalid or unsupported Perl syntax: `(?=`\'',
    ])
  })

  it('reports sizes and duplicates of arrays', () => {
    expect(messages({ tags: [] })).toEqual([
      'spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items',
    ])
    expect(messages({ tags: ['a', 'b', 'c', 'd'] })).toEqual([
      'spec.tags: Too many: 4: must have at most 3 items',
    ])
    expect(messages({ tags: ['a', 'a'] })).toEqual([
      'spec.tags: Invalid value: "": spec.tags in body shouldn\'t contain duplicates',
    ])
    expect(messages({ tags: ['a', 7] })).toEqual([
      'spec.tags[1]: Invalid value: "integer": spec.tags[1] in body must be of type string: "integer"',
    ])
  })

  it('validates map values and counts properties', () => {
    expect(messages({ labels: {} })).toEqual([
      'spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties',
    ])
    expect(messages({ labels: { a: 'x', b: 'y', c: 'z' } })).toEqual([
      'spec.labels: Too many: 3: must have at most 2 items',
    ])
    expect(messages({ labels: { 'app.kubernetes.io/name': 'toolong' } })).toEqual([
      'spec.labels.app.kubernetes.io/name: Too long: may not be more than 5 bytes',
    ])
  })

  it('checks the formats kube-apiserver knows and ignores the others', () => {
    expect(messages({ uid: 'nope' })).toEqual([
      'spec.uid: Invalid value: "nope": spec.uid in body must be of type uuid: "nope"',
    ])
    expect(messages({ when: 'yesterday' })).toEqual([
      'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
    ])
    expect(messages({ count: 5 })).toEqual([])
  })

  it('leaves metadata at the root to ObjectMeta validation', () => {
    const schema = widgetSchema()
    schema.properties!.metadata = {
      type: 'object',
      properties: { name: { type: 'string', maxLength: 1 } },
    }
    expect(validateAgainstSchema(schema, widget({})).map(formatCause)).toEqual([])
  })

  it('checks apiVersion and kind only when declared', () => {
    const schema = widgetSchema()
    expect(validateAgainstSchema(schema, { ...widget({}), kind: 5 })).toEqual([])
    schema.properties!.kind = { type: 'string' }
    expect(validateAgainstSchema(schema, { ...widget({}), kind: 5 }).map(formatCause)).toEqual([
      'kind: Invalid value: "integer": kind in body must be of type string: "integer"',
    ])
  })

  it('validates anyOf, oneOf, allOf and not', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { a: { type: 'string' }, b: { type: 'string' } },
          oneOf: [{ required: ['a'] }, { required: ['b'] }],
        },
      },
    }
    const check = (spec: unknown) =>
      validateAgainstSchema(schema, { apiVersion: 'v', kind: 'K', spec }).map(formatCause)
    expect(check({ a: 'x' })).toEqual([])
    expect(check({ a: 'x', b: 'y' })).toEqual([
      '<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ])
    expect(check({})).toEqual([
      '<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found none valid',
      'spec.a: Required value',
    ])
    const not: JSONSchemaProps = {
      type: 'object',
      properties: { spec: { type: 'object', not: { required: ['a'] } } },
    }
    expect(validateAgainstSchema(not, { spec: { a: 1 } }).map(formatCause)).toEqual([
      '<nil>: Invalid value: "": "spec" must not validate the schema (not)',
    ])
  })

  it('renders several causes as one aggregate', () => {
    const causes = validateAgainstSchema(widgetSchema(), widget({ replicas: 200, size: 'x' }))
    expect(aggregateMessage(causes)).toBe(
      '[spec.replicas: Invalid value: 200: spec.replicas in body should be less than or equal to 100, spec.size: Unsupported value: "x": supported values: "a", "b"]',
    )
  })
})

describe('pruneUnknownFields', () => {
  it('removes undeclared fields and reports their paths, sorted', () => {
    const obj = widget({ foo: 1, items: [{ id: 'a', bar: 2 }, { id: 'b' }], labels: { x: 'y' } })
    obj.extra = { deep: true }
    ;(obj.status as unknown) = { ready: true, phase: 'Up' }
    const removed = pruneUnknownFields(widgetSchema(), obj)
    expect(removed).toEqual(['extra', 'spec.foo', 'spec.items[0].bar', 'status.phase'])
    expect(obj).toEqual({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'default' },
      spec: { name: '12', items: [{ id: 'a' }, { id: 'b' }], labels: { x: 'y' } },
      status: { ready: true },
    })
    expect(strictDecodingMessage(removed)).toBe(
      'strict decoding error: unknown field "extra", unknown field "spec.foo", unknown field "spec.items[0].bar", unknown field "status.phase"',
    )
  })

  it('keeps apiVersion, kind and metadata of the root untouched', () => {
    const obj = widget({})
    ;(obj.metadata as Record<string, unknown>).whatever = 1
    expect(pruneUnknownFields(widgetSchema(), obj)).toEqual([])
    expect(obj.metadata).toEqual({ name: 'w', namespace: 'default', whatever: 1 })
  })

  it('keeps unknown fields under preserve-unknown-fields but prunes declared ones', () => {
    const obj = widget({ raw: { anything: { goes: [1] }, kept: { a: 'x', b: 'y' } } })
    expect(pruneUnknownFields(widgetSchema(), obj)).toEqual(['spec.raw.kept.b'])
    expect((obj.spec as Record<string, unknown>).raw).toEqual({
      anything: { goes: [1] },
      kept: { a: 'x' },
    })
  })

  it('keeps apiVersion, kind and metadata of an embedded resource', () => {
    const obj = widget({
      template: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { labels: { a: 'b' } },
        spec: { image: 'x', command: ['y'] },
        other: 1,
      },
    })
    expect(pruneUnknownFields(widgetSchema(), obj)).toEqual([
      'spec.template.other',
      'spec.template.spec.command',
    ])
    expect((obj.spec as Record<string, unknown>).template).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { labels: { a: 'b' } },
      spec: { image: 'x' },
    })
  })

  it('reports kind and metadata below the root as unknown when not declared', () => {
    const obj = widget({ items: [{ id: 'a', kind: 'X' }] })
    expect(pruneUnknownFields(widgetSchema(), obj)).toEqual(['spec.items[0].kind'])
  })

  it('empties objects whose schema declares no fields', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object' } } }
    const obj: Record<string, unknown> = { apiVersion: 'v', kind: 'K', spec: { a: 1, b: { c: 2 } } }
    expect(pruneUnknownFields(schema, obj)).toEqual(['spec.a', 'spec.b'])
    expect(obj.spec).toEqual({})
  })

  it('drops nulls of fields that are neither nullable nor defaulted, unreported', () => {
    const schema = widgetSchema()
    schema.properties!.spec!.properties!.enabled!.default = true
    const obj = widget({ replicas: null, note: null, enabled: null })
    expect(pruneUnknownFields(schema, obj)).toEqual([])
    expect(obj.spec).toEqual({ name: '12', note: null, enabled: null })
  })
})

describe('applySchemaDefaults', () => {
  const schema = (): JSONSchemaProps => ({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        default: {},
        properties: {
          replicas: { type: 'integer', default: 1 },
          mode: { type: 'string', default: 'auto' },
          ports: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                protocol: { type: 'string', default: 'TCP' },
                port: { type: 'integer' },
              },
            },
          },
          limits: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              properties: { max: { type: 'integer', default: 10 } },
            },
          },
          nested: {
            type: 'object',
            properties: { deep: { type: 'object', default: { on: true } } },
          },
        },
      },
    },
  })

  it('fills in missing fields, recursing into defaults, arrays and maps', () => {
    const obj: Record<string, unknown> = { apiVersion: 'v', kind: 'K', metadata: { name: 'x' } }
    applySchemaDefaults(schema(), obj)
    expect(obj.spec).toEqual({ replicas: 1, mode: 'auto' })

    const obj2: Record<string, unknown> = {
      spec: {
        replicas: 3,
        ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }],
        limits: { cpu: {}, mem: { max: 2 } },
        nested: {},
      },
    }
    applySchemaDefaults(schema(), obj2)
    expect(obj2.spec).toEqual({
      replicas: 3,
      mode: 'auto',
      ports: [
        { port: 80, protocol: 'TCP' },
        { port: 53, protocol: 'UDP' },
      ],
      limits: { cpu: { max: 10 }, mem: { max: 2 } },
      nested: { deep: { on: true } },
    })
  })

  it('replaces a null that is not nullable, keeps an explicit value', () => {
    const obj: Record<string, unknown> = { spec: { replicas: null, mode: '' } }
    applySchemaDefaults(schema(), obj)
    expect(obj.spec).toEqual({ replicas: 1, mode: '' })
  })

  it('copies defaults rather than sharing them', () => {
    const s = schema()
    const a: Record<string, unknown> = {}
    const b: Record<string, unknown> = {}
    applySchemaDefaults(s, a)
    applySchemaDefaults(s, b)
    ;(a.spec as Record<string, unknown>).mode = 'changed'
    expect((b.spec as Record<string, unknown>).mode).toBe('auto')
    expect(s.properties!.spec!.default).toEqual({})
  })
})

describe('checkStructural', () => {
  const at = 'spec.versions[0].schema.openAPIV3Schema'
  const check = (schema: JSONSchemaProps) => checkStructural(schema, at).map(formatCause)

  it('accepts a structural schema', () => {
    expect(check(widgetSchema())).toEqual([])
    expect(
      check({
        type: 'object',
        properties: {
          metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } },
        },
      }),
    ).toEqual([])
  })

  it('requires types on fields, items and the root', () => {
    expect(
      check({ type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } }),
    ).toEqual([
      `${at}.properties[spec].type: Required value: must not be empty for specified object fields`,
    ])
    expect(check({ type: 'object', properties: { list: { type: 'array', items: {} } } })).toEqual([
      `${at}.properties[list].items.type: Required value: must not be empty for specified array items`,
    ])
    expect(check({ properties: {} })).toEqual([
      `${at}.type: Required value: must not be empty at the root`,
    ])
    expect(check({ type: 'object', properties: { list: { type: 'array' } } })).toEqual([
      `${at}.properties[list].items: Required value: must be specified`,
    ])
  })

  it('requires an object at the root without additionalProperties', () => {
    expect(check({ type: 'string' })).toEqual([
      `${at}.type: Invalid value: "string": must be object at the root`,
    ])
    expect(check({ type: 'object', additionalProperties: { type: 'string' } })).toEqual([
      `${at}.additionalProperties: Forbidden: must not be used at the root`,
    ])
  })

  it('lets int-or-string and preserve-unknown-fields go without a type', () => {
    expect(
      check({
        type: 'object',
        properties: {
          port: { 'x-kubernetes-int-or-string': true },
          raw: { 'x-kubernetes-preserve-unknown-fields': true },
        },
      }),
    ).toEqual([])
  })

  it('restricts metadata at the root to name and generateName', () => {
    expect(
      check({
        type: 'object',
        properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
      }),
    ).toEqual([
      `${at}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ])
  })

  it('sorts the causes by their text', () => {
    expect(check({ type: 'object', properties: { b: {}, a: {} } })).toEqual([
      `${at}.properties[a].type: Required value: must not be empty for specified object fields`,
      `${at}.properties[b].type: Required value: must not be empty for specified object fields`,
    ])
  })
})
