import { invalid, required, type FieldCause } from '../../apimachinery/field-errors'
import { goQuote } from '../../apimachinery/go-format'
import type { JSONSchemaProps } from './schema'
import { isJsonObject as isObject, jsonEqual } from '../../apimachinery/json-value'
import { hasRules } from './cel-rules'
import { ruleCauses } from './cel-rule-eval'
import { fieldOf, IN, invalidCause, plainCause, Result, tooMany, type Obj } from './schema-result'
import {
  checkEnum,
  checkFormat,
  checkNumber,
  checkString,
  checkType,
  formatOf,
  typesOf,
} from './schema-scalars'

/**
 * Validation of a custom resource against its CRD schema, with the causes kube-apiserver returns:
 * the OpenAPI validator's messages (`spec.replicas in body should be less than or equal to 100`)
 * turned into field errors the way the CRD registry does (required, unsupported, too long and too
 * many get their own types; everything else is an invalid value carrying the message). Checks run
 * per value in the validator's order: type, allOf/anyOf/oneOf/not, string, format, number, array,
 * enum, object; properties in the order the schema declares them. Then, on an object whose types
 * are right, the schema's x-kubernetes-validations rules (`cel-rule-eval.ts`). The checks of a
 * single value are in `schema-scalars.ts`; the result and its causes' wording in `schema-result.ts`.
 */

function checkArray(s: JSONSchemaProps, name: string, data: unknown[], r: Result): void {
  if (s.items) data.forEach((v, i) => r.merge(validateValue(s.items!, `${name}[${i}]`, v)))
  if (s.minItems !== undefined && data.length < s.minItems) {
    const message = `${name} in ${IN} should have at least ${s.minItems} items`
    r.add(message, invalidCause(name, data.length, message))
  }
  if (s.maxItems !== undefined && data.length > s.maxItems) {
    r.add(
      `${name} in ${IN} should have at most ${s.maxItems} items`,
      tooMany(name, data.length, s.maxItems),
    )
  }
  if (s.uniqueItems && data.some((v, i) => data.slice(0, i).some((u) => jsonEqual(u, v)))) {
    const message = `${name} in ${IN} shouldn't contain duplicates`
    r.add(message, invalidCause(name, '', message))
  }
  r.matches++
}

function checkObject(s: JSONSchemaProps, name: string, data: Obj, r: Result): void {
  const size = Object.keys(data).length
  if (s.minProperties !== undefined && size < s.minProperties) {
    const message = `${name} in ${IN} should have at least ${s.minProperties} properties`
    r.add(message, invalidCause(name, size, message))
  }
  if (s.maxProperties !== undefined && size > s.maxProperties) {
    r.add(
      `${name} in ${IN} should have at most ${s.maxProperties} properties`,
      tooMany(name, size, s.maxProperties),
    )
  }
  const props = s.properties ?? {}
  const declared = (k: string) => Object.hasOwn(props, k)
  if (s.additionalProperties === false) {
    for (const k of Object.keys(data)) {
      if (declared(k)) continue
      const message = `${name}.${k} in ${IN} is a forbidden property`
      r.add(message, invalidCause(name, k, message))
    }
  } else if (isObject(s.additionalProperties)) {
    const values = s.additionalProperties as JSONSchemaProps
    for (const [k, v] of Object.entries(data))
      if (!declared(k)) r.merge(validateValue(values, `${name}.${k}`, v))
  }
  for (const [k, prop] of Object.entries(props)) {
    if (Object.hasOwn(data, k))
      r.merge(validateValue(prop, name === '' ? k : `${name}.${k}`, data[k]))
  }
  for (const k of s.required ?? []) {
    if (!Object.hasOwn(data, k))
      r.add(`${name}.${k} in ${IN} is required`, required(fieldOf(`${name}.${k}`)))
  }
}

function checkComposition(s: JSONSchemaProps, name: string, data: unknown): Result {
  const main = new Result()
  const quoted = goQuote(name)
  const fail = (message: string) => main.add(message, plainCause(message))
  if (s.anyOf?.length) {
    let best: Result | undefined
    let firstSuccess: Result | undefined
    for (const sub of s.anyOf) {
      const res = validateValue(sub, name, data)
      if (res.valid) {
        best = undefined
        firstSuccess = res
        break
      }
      if (!best || res.matches > best.matches) best = res
    }
    if (!firstSuccess) fail(`${quoted} must validate at least one schema (anyOf)`)
    main.merge(best ?? firstSuccess)
  }
  if (s.oneOf?.length) {
    let best: Result | undefined
    let firstSuccess: Result | undefined
    let validated = 0
    for (const sub of s.oneOf) {
      const res = validateValue(sub, name, data)
      if (res.valid) {
        validated++
        best = undefined
        firstSuccess ??= res
        continue
      }
      if (validated === 0 && (!best || res.matches > best.matches)) best = res
    }
    if (validated !== 1) {
      fail(
        `${quoted} must validate one and only one schema (oneOf). ${validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`}`,
      )
      main.merge(best)
    } else main.merge(firstSuccess)
  }
  if (s.allOf?.length) {
    let validated = 0
    for (const sub of s.allOf) {
      const res = validateValue(sub, name, data)
      if (res.valid) validated++
      main.merge(res)
    }
    if (validated !== s.allOf.length)
      fail(
        `${quoted} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`,
      )
  }
  if (s.not && validateValue(s.not, name, data).valid)
    fail(`${quoted} must not validate the schema (not)`)
  main.matches++
  return main
}

function validateValue(s: JSONSchemaProps, name: string, data: unknown): Result {
  const r = new Result()
  const checksType = typesOf(s).length > 0 || formatOf(s) !== ''
  if (data === null || data === undefined) {
    if (checksType) r.merge(checkType(s, name, data))
    checkEnum(s, name, data, r)
    return r
  }
  const step = (run: () => void) => {
    run()
    r.matches++
  }
  if (checksType) step(() => r.merge(checkType(s, name, data)))
  step(() => r.merge(checkComposition(s, name, data)))
  if (typeof data === 'string') {
    step(() => checkString(s, name, data, r))
    if (formatOf(s) !== '') step(() => checkFormat(s, name, data, r))
  }
  if (typeof data === 'number') step(() => checkNumber(s, name, data, r))
  if (Array.isArray(data)) step(() => checkArray(s, name, data, r))
  step(() => checkEnum(s, name, data, r))
  if (isObject(data)) step(() => checkObject(s, name, data, r))
  r.matches++
  return r
}

/**
 * The causes of `obj` failing `schema`, in the order kube-apiserver reports them. `metadata` at the
 * root is left to ObjectMeta validation; `apiVersion` and `kind` are checked only when the schema
 * declares them.
 */
export function validateAgainstSchema(
  schema: JSONSchemaProps,
  obj: Record<string, unknown>,
): FieldCause[] {
  const { metadata: _metadata, ...rootProps } = schema.properties ?? {}
  const root: JSONSchemaProps = { ...schema, properties: rootProps }
  const causes = validateValue(root, '', obj).problems.map((p) => p.cause)
  if (!hasRules(schema)) return causes
  // As the CRD strategy, the x-kubernetes-validations rules run only on an object of the right types.
  if (
    causes.some(
      (c) => c.reason === 'FieldValueNotSupported' || c.reason === 'FieldValueTypeInvalid',
    )
  ) {
    return [
      ...causes,
      invalid(
        '<nil>',
        null,
        'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
        '"null"',
      ),
    ]
  }
  return [...causes, ...ruleCauses(schema, obj)]
}
