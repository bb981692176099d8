/**
 * A custom resource's `x-kubernetes-validations` rules evaluated as kube-apiserver's CEL validator
 * does: at every schema node whose value is present and not null, `self` the value there (typed by
 * its schema: integers as ints, numbers as doubles), `oldSelf` the stored value when it correlates
 * (through object fields, and `map` lists by their keys). A rule that is not true fails with its
 * message, its messageExpression's result, or `failed rule: <rule>`, as a field error of its reason
 * at its place (or its fieldPath): `spec: Invalid value: "object": …`. Rules without `oldSelf` run on
 * every write; transition rules only on an update where an old value correlates, or, with
 * optionalOldSelf, on every write (`oldSelf` an optional). All rules of one object share
 * celconfig.RuntimeCELCostBudget.
 */
import { Optional } from '@marcbachmann/cel-js'
import {
  duplicate,
  forbidden,
  invalid,
  required,
  type FieldCause,
} from '../../apimachinery/field-errors'
import { evaluateProgram, toCel } from '../admissionregistration/cel'
import { newCostBudget, type CostBudget } from '../admissionregistration/cel-cost'
import { compiledRules, fieldPathOf, hasRules, type CompiledRule } from './cel-rules'
import type { JSONSchemaProps, ValidationRule } from './schema'

type Obj = Record<string, unknown>

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const isSchema = (v: unknown): v is JSONSchemaProps => isObj(v)

/**
 * Which rules a pass evaluates: those without oldSelf (every write), those with it (an update), or
 * those with it and optionalOldSelf (a create, with oldSelf none).
 */
type Pass = 'plain' | 'transition' | 'create'

interface Walk {
  pass: Pass
  budget: CostBudget
  causes: FieldCause[]
  stopped: boolean
}

/** A value as CEL sees it under its schema (UnstructuredToVal): integer and number fields typed. */
function celValue(s: JSONSchemaProps | undefined, v: unknown): unknown {
  if (v === null || v === undefined || !s) return toCel(v)
  if (typeof v === 'number') return s.type === 'number' ? v : toCel(v)
  if (Array.isArray(v)) return v.map((x) => celValue(isSchema(s.items) ? s.items : undefined, x))
  if (isObj(v)) {
    const out: Obj = {}
    for (const [k, x] of Object.entries(v))
      out[k] = celValue(
        s.properties?.[k] ??
          (isSchema(s.additionalProperties) ? s.additionalProperties : undefined),
        x,
      )
    return out
  }
  return v
}

/** The root's `self`: of metadata, only name and generateName, as upstream's WithTypeAndObjectMeta. */
function rootValue(s: JSONSchemaProps, obj: Obj): unknown {
  const value = celValue(s, obj) as Obj
  const meta = isObj(obj.metadata) ? obj.metadata : {}
  value.metadata = Object.fromEntries(
    ['name', 'generateName'].filter((k) => typeof meta[k] === 'string').map((k) => [k, meta[k]]),
  )
  return value
}

const ruleText = (r: ValidationRule) =>
  r.message?.trim() ? r.message.trim() : (r.rule ?? '').trim()

function failure(
  path: string,
  type: string,
  detail: string,
  reason: string | undefined,
): FieldCause {
  if (reason === 'FieldValueForbidden') return forbidden(path, detail)
  if (reason === 'FieldValueRequired') return required(path, detail)
  if (reason === 'FieldValueDuplicate') return duplicate(path, type)
  return invalid(path, type, detail)
}

/** The messageExpression's text, or undefined to fall back to the message; running out of cost stops every rule. */
function evaluatedMessage(
  c: CompiledRule,
  context: Obj,
  w: Walk,
  path: string,
  type: string,
): string | undefined {
  const result = evaluateProgram(c.messageProgram!, context, w.budget)
  if (w.budget.remaining < 0 || (!result.ok && result.costExceeded)) {
    const why =
      w.budget.remaining < 0
        ? 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'
        : `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(c.rule.messageExpression)}`
    w.causes.push(invalid(path, type, why))
    w.stopped = true
    return undefined
  }
  if (!result.ok || typeof result.value !== 'string') return undefined
  const text = result.value.trim()
  return text && text.length <= 5 * 1024 && !text.includes('\n') ? text : undefined
}

function evaluateRules(
  s: JSONSchemaProps,
  path: string,
  value: unknown,
  old: unknown,
  hasOld: boolean,
  w: Walk,
  root: boolean,
): void {
  const rules = compiledRules(s)
  if (!rules.length) return
  const type = s.type ?? ''
  const self = root ? rootValue(s, value as Obj) : celValue(s, value)
  const oldSelf = hasOld ? (root ? rootValue(s, old as Obj) : celValue(s, old)) : undefined
  for (const c of rules) {
    if (w.stopped) return
    const optional = !!c.rule.optionalOldSelf
    const runs =
      w.pass === 'plain'
        ? !c.usesOldSelf
        : w.pass === 'create'
          ? c.usesOldSelf && optional
          : c.usesOldSelf && (hasOld || optional)
    if (!runs) continue
    if (c.error) {
      w.causes.push(invalid(path, type, `rule compile error: ${c.error}`))
      continue
    }
    if (!c.program) continue
    const context: Obj = {
      self,
      oldSelf: optional ? (hasOld ? Optional.of(oldSelf) : Optional.none()) : (oldSelf ?? null),
    }
    const result = evaluateProgram(c.program, context, w.budget)
    if (w.budget.remaining < 0) {
      w.causes.push(
        invalid(
          path,
          type,
          'validation failed due to running out of cost budget, no further validation rules will be run',
        ),
      )
      w.stopped = true
      return
    }
    if (!result.ok) {
      if (result.costExceeded) {
        w.causes.push(
          invalid(
            path,
            type,
            `'${result.error}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText(c.rule)}`,
          ),
        )
        w.stopped = true
        return
      }
      if (/^(no such overload|found no matching overload)/.test(result.error))
        w.causes.push(
          invalid(
            path,
            type,
            `'${result.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(c.rule)}`,
          ),
        )
      else
        w.causes.push(invalid(path, type, `${result.error} evaluating rule: ${ruleText(c.rule)}`))
      continue
    }
    if (result.value === true) continue
    const target = c.rule.fieldPath?.trim()
      ? [path === '<nil>' ? '' : path, fieldPathOf(s, c.rule.fieldPath) ?? '']
          .filter(Boolean)
          .join('.')
      : path
    const message = c.messageProgram ? evaluatedMessage(c, context, w, target, type) : undefined
    if (w.stopped) return
    w.causes.push(
      failure(
        target,
        type,
        message ??
          (c.rule.message?.trim() ? c.rule.message.trim() : `failed rule: ${ruleText(c.rule)}`),
        c.rule.reason,
      ),
    )
  }
}

/** listType map items correlate by their keys; no other list's items do. */
function oldItem(
  s: JSONSchemaProps,
  item: unknown,
  old: unknown,
): { found: boolean; value?: unknown } {
  const keys = s['x-kubernetes-list-map-keys'] ?? []
  if (s['x-kubernetes-list-type'] !== 'map' || !keys.length || !Array.isArray(old) || !isObj(item))
    return { found: false }
  const match = old.find(
    (o) => isObj(o) && keys.every((k) => JSON.stringify(o[k]) === JSON.stringify(item[k])),
  )
  return match === undefined ? { found: false } : { found: true, value: match }
}

const child = (path: string, name: string) => (path === '<nil>' ? name : `${path}.${name}`)
const correlates = (s: JSONSchemaProps) =>
  [undefined, 'granular', 'atomic'].includes(s['x-kubernetes-map-type'])

function walk(
  s: JSONSchemaProps,
  path: string,
  value: unknown,
  old: unknown,
  hasOld: boolean,
  w: Walk,
  root = false,
): void {
  if (value === null || value === undefined || w.stopped) return
  evaluateRules(s, path, value, old, hasOld, w, root)
  if (Array.isArray(value) && isSchema(s.items)) {
    for (const [i, item] of value.entries()) {
      const o = hasOld ? oldItem(s, item, old) : { found: false }
      walk(s.items, `${path}[${i}]`, item, o.value, o.found, w)
    }
  } else if (isObj(value)) {
    const oldObj = hasOld && correlates(s) && isObj(old) ? old : undefined
    const has = (k: string) =>
      oldObj !== undefined && Object.hasOwn(oldObj, k) && oldObj[k] !== null
    if (isSchema(s.additionalProperties))
      for (const [k, v] of Object.entries(value))
        walk(
          s.additionalProperties,
          `${path === '<nil>' ? '' : path}[${k}]`,
          v,
          oldObj?.[k],
          has(k),
          w,
        )
    for (const [k, v] of Object.entries(value)) {
      if (root && k === 'metadata') continue
      const sub = s.properties?.[k]
      if (sub) walk(sub, child(path, k), v, oldObj?.[k], has(k), w)
    }
  }
}

function run(schema: JSONSchemaProps, pass: Pass, obj: Obj, old?: Obj): FieldCause[] {
  if (!hasRules(schema)) return []
  const w: Walk = { pass, budget: newCostBudget(), causes: [], stopped: false }
  walk(schema, '<nil>', obj, old, old !== undefined, w, true)
  return w.causes
}

/** The rules without oldSelf, on any write. */
export const ruleCauses = (schema: JSONSchemaProps, obj: Obj): FieldCause[] =>
  run(schema, 'plain', obj)

/** The transition rules that declare optionalOldSelf, on a create. */
export const createRuleCauses = (schema: JSONSchemaProps, obj: Obj): FieldCause[] =>
  run(schema, 'create', obj)

/** The transition rules (those naming oldSelf), on an update. */
export const transitionRuleCauses = (schema: JSONSchemaProps, old: Obj, obj: Obj): FieldCause[] =>
  run(schema, 'transition', obj, old)
