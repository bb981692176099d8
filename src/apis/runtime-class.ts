/**
 * node.k8s.io/v1 RuntimeClass: its validation, and the RuntimeClass admission plugin's decisions
 * (plugin/pkg/admission/runtimeclass) as pure functions of a pod and the class it names.
 */
import type { KubeObject } from '../apimachinery/types'
import { invalid, notSupported, required, type FieldCause } from '../apimachinery/field-errors'
import { checkName } from '../apimachinery/object-meta-validation'
import { validateLabels } from '../apimachinery/field-formats'
import { parseCpuMillis } from '../apimachinery/quantity'
import { asRecord, type Json } from '../apimachinery/json-value'

/** Two quantities of one amount (`1Gi` and `1024Mi`), compared at milli precision. */
function quantityEquals(a: unknown, b: unknown): boolean {
  try {
    return parseCpuMillis(a as string) === parseCpuMillis(b as string)
  } catch {
    return a === b
  }
}

/** ValidateResourceQuantityValue's non-negative rule; the decoder has already checked the syntax. */
function validResourceQuantity(q: unknown): string | undefined {
  try {
    return parseCpuMillis(q as string) < 0 ? 'must be greater than or equal to 0' : undefined
  } catch {
    return undefined
  }
}

const asList = (v: unknown): Json[] => (Array.isArray(v) ? v.map(asRecord) : [])

interface RuntimeClassFields {
  handler?: unknown
  overhead?: { podFixed?: Record<string, unknown> }
  scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Json[] }
}

const fieldsOf = (rc: KubeObject) => rc as KubeObject & RuntimeClassFields

const tolerationOperators = ['Equal', 'Exists']
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute']

/** validateTolerations of core validation, for the fields the scheduler reads. */
function validateTolerations(tolerations: readonly Json[], path: string): FieldCause[] {
  const causes: FieldCause[] = []
  tolerations.forEach((t, i) => {
    const at = `${path}[${i}]`
    const operator = t.operator ?? 'Equal'
    if (typeof t.key === 'string' && t.key !== '') {
      for (const msg of checkName(
        'dns1123-subdomain',
        t.key.includes('/') ? t.key.slice(0, t.key.indexOf('/')) : 'a',
      ))
        causes.push(invalid(`${at}.key`, t.key, msg))
    } else if (operator !== 'Exists') {
      causes.push(
        invalid(
          `${at}.operator`,
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      )
    }
    if (!tolerationOperators.includes(String(operator)))
      causes.push(notSupported(`${at}.operator`, operator, tolerationOperators))
    if (operator === 'Exists' && typeof t.value === 'string' && t.value !== '')
      causes.push(invalid(`${at}.operator`, t, "value must be empty when `operator` is 'Exists'"))
    if (t.effect !== undefined && t.effect !== '' && !taintEffects.includes(String(t.effect)))
      causes.push(notSupported(`${at}.effect`, t.effect, taintEffects))
    if (
      t.tolerationSeconds !== undefined &&
      t.tolerationSeconds !== null &&
      t.effect !== 'NoExecute'
    ) {
      causes.push(
        invalid(
          `${at}.effect`,
          t.effect ?? '',
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      )
    }
  })
  return causes
}

/** ValidateRuntimeClass, after the object's metadata. */
export function validateRuntimeClass(rc: KubeObject): FieldCause[] {
  const f = fieldsOf(rc)
  const causes: FieldCause[] = []
  if (typeof f.handler !== 'string' || f.handler === '') causes.push(required('handler'))
  else
    for (const msg of checkName('dns1123-label', f.handler))
      causes.push(invalid('handler', f.handler, msg))
  for (const [name, value] of Object.entries(asRecord(f.overhead?.podFixed))) {
    const why = validResourceQuantity(value)
    if (why) causes.push(invalid(`overhead.podFixed[${name}]`, value, why))
  }
  if (f.scheduling) {
    causes.push(...validateLabels(f.scheduling.nodeSelector, 'scheduling.nodeSelector'))
    causes.push(...validateTolerations(asList(f.scheduling.tolerations), 'scheduling.tolerations'))
  }
  return causes
}

/** Whether toleration `a` already tolerates everything `b` does (isSuperset of upstream's MergeTolerations). */
function covers(a: Json, b: Json): boolean {
  if (a.effect && a.effect !== b.effect) return false
  if (a.effect === 'NoExecute' && (a.tolerationSeconds ?? null) !== (b.tolerationSeconds ?? null)) {
    if (
      a.tolerationSeconds !== undefined &&
      a.tolerationSeconds !== null &&
      (b.tolerationSeconds === undefined ||
        b.tolerationSeconds === null ||
        Number(a.tolerationSeconds) < Number(b.tolerationSeconds))
    )
      return false
  }
  const aOp = a.operator ?? 'Equal'
  if (aOp === 'Exists' && (a.key ?? '') === '') return true
  if ((a.key ?? '') !== (b.key ?? '')) return false
  if (aOp === 'Exists') return true
  return (b.operator ?? 'Equal') === 'Equal' && (a.value ?? '') === (b.value ?? '')
}

/** MergeTolerations: the pod's tolerations, then each of the class's that none already covers. */
export function mergeTolerations(first: readonly Json[], second: readonly Json[]): Json[] {
  const out = [...first]
  for (const t of second) if (!out.some((have) => covers(have, t))) out.push(t)
  return out
}

function sameOverhead(a: Json, b: Json): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  for (const k of keys)
    if (a[k] === undefined || b[k] === undefined || !quantityEquals(a[k], b[k])) return false
  return true
}

export type RuntimeClassDecision = { ok: true } | { ok: false; reason: string }

/**
 * The RuntimeClass plugin on a pod create, `rc` being the class spec.runtimeClassName names
 * (undefined when there is none, or when the name is unknown): an unknown class is refused; the
 * class's overhead is copied to the pod (a different one already there is refused); its
 * nodeSelector is merged into the pod's (a key set to another value is refused) and its
 * tolerations appended. Mutates the pod.
 */
export function admitPodRuntimeClass(
  pod: KubeObject,
  rc: KubeObject | undefined,
): RuntimeClassDecision {
  const spec = (pod.spec ??= {}) as Json
  const name = spec.runtimeClassName
  const named = typeof name === 'string' && name !== ''
  if (named && !rc)
    return { ok: false, reason: `pod rejected: RuntimeClass ${JSON.stringify(name)} not found` }
  const podFixed = rc ? fieldsOf(rc).overhead?.podFixed : undefined
  const podOverhead = spec.overhead
  if (podFixed) {
    if (
      podOverhead &&
      Object.keys(asRecord(podOverhead)).length &&
      !sameOverhead(asRecord(podOverhead), podFixed)
    ) {
      return {
        ok: false,
        reason: "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
      }
    }
    spec.overhead = { ...podFixed }
  } else if (podOverhead !== undefined && podOverhead !== null) {
    return {
      ok: false,
      reason: 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
    }
  }
  const scheduling = rc ? fieldsOf(rc).scheduling : undefined
  if (!scheduling) return { ok: true }
  const selector = scheduling.nodeSelector ?? {}
  if (Object.keys(selector).length) {
    const podSelector = { ...(asRecord(spec.nodeSelector) as Record<string, string>) }
    for (const [key, value] of Object.entries(selector)) {
      const have = podSelector[key]
      if (have !== undefined && have !== value) {
        return {
          ok: false,
          reason: `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${have}`,
        }
      }
      podSelector[key] = value
    }
    spec.nodeSelector = podSelector
  }
  const tolerations = asList(scheduling.tolerations)
  if (tolerations.length) spec.tolerations = mergeTolerations(asList(spec.tolerations), tolerations)
  return { ok: true }
}
