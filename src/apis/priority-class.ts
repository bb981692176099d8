/**
 * scheduling.k8s.io/v1 PriorityClass: its validation, its defaults, the built-in system classes,
 * and the Priority admission plugin's decisions (plugin/pkg/admission/priority), as pure
 * functions of the pod or class and the classes that exist.
 */
import type { KubeObject } from '../apimachinery/types'
import {
  forbidden,
  invalid,
  notSupported,
  required,
  type FieldCause,
} from '../apimachinery/field-errors'

export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-'
/** The highest value a class not named `system-…` may have. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000
/** What a pod gets when no class is named and none is the global default. */
export const DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS = 0

export const preemptionPolicies = ['PreemptLowerPriority', 'Never'] as const

/** The classes kube-apiserver creates at startup (scheduling.SystemPriorityClasses). */
export const systemPriorityClasses: readonly KubeObject[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2_000_001_000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2_000_000_000,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
]

interface PriorityClassFields {
  value?: unknown
  globalDefault?: unknown
  preemptionPolicy?: unknown
}

const asRecord = (pc: KubeObject) => pc as KubeObject & PriorityClassFields

/** SetDefaults_PriorityClass: preemptionPolicy defaults to PreemptLowerPriority. */
export function defaultPriorityClass(pc: KubeObject): void {
  asRecord(pc).preemptionPolicy ??= 'PreemptLowerPriority'
}

/** IsKnownSystemPriorityClass: the reason a `system-` name is refused, or undefined. */
function systemClassError(
  name: string,
  value: unknown,
  globalDefault: boolean,
): string | undefined {
  const known = systemPriorityClasses.find((c) => c.metadata.name === name)
  if (!known) return `${name} is not a known system priority class`
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`
  return undefined
}

/** validatePreemptionPolicy of core validation, for a class or a pod. */
export function validatePreemptionPolicy(policy: unknown, field: string): FieldCause[] {
  if (policy === undefined || policy === null) return []
  if (policy === '') return [required(field)]
  return (preemptionPolicies as readonly unknown[]).includes(policy)
    ? []
    : [notSupported(field, policy, preemptionPolicies)]
}

/** ValidatePriorityClass, after the object's metadata. */
export function validatePriorityClass(pc: KubeObject): FieldCause[] {
  const f = asRecord(pc)
  const causes: FieldCause[] = []
  const name = pc.metadata.name ?? ''
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const why = systemClassError(name, f.value, f.globalDefault === true)
    if (why)
      causes.push(
        forbidden(
          'metadata.name',
          `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${why}`,
        ),
      )
  } else if (typeof f.value === 'number' && f.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    causes.push(
      forbidden(
        'value',
        `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
      ),
    )
  }
  causes.push(...validatePreemptionPolicy(f.preemptionPolicy, 'preemptionPolicy'))
  return causes
}

/** ValidatePriorityClassUpdate: value and preemptionPolicy never change. */
export function validatePriorityClassUpdate(old: KubeObject, next: KubeObject): FieldCause[] {
  const causes: FieldCause[] = []
  if (asRecord(old).value !== asRecord(next).value)
    causes.push(forbidden('value', 'may not be changed in an update.'))
  if (asRecord(old).preemptionPolicy !== asRecord(next).preemptionPolicy)
    causes.push(
      invalid('preemptionPolicy', asRecord(next).preemptionPolicy ?? null, 'field is immutable'),
    )
  return causes
}

/** getDefaultPriorityClass: the globalDefault class, the lowest-valued one should several claim it. */
export function defaultClassOf(classes: readonly KubeObject[]): KubeObject | undefined {
  let chosen: KubeObject | undefined
  for (const pc of classes) {
    if (asRecord(pc).globalDefault !== true) continue
    if (!chosen || Number(asRecord(chosen).value) > Number(asRecord(pc).value)) chosen = pc
  }
  return chosen
}

/**
 * The Priority plugin on a PriorityClass write: a class may become the global default only while
 * no other one is. Returns why the write is refused, or undefined.
 */
export function globalDefaultRefusal(
  pc: KubeObject,
  classes: readonly KubeObject[],
  operation: 'create' | 'update',
): string | undefined {
  if (asRecord(pc).globalDefault !== true) return undefined
  const current = defaultClassOf(classes)
  if (!current) return undefined
  if (operation === 'create' || current.metadata.name !== pc.metadata.name) {
    return `PriorityClass ${current.metadata.name} is already marked as default. Only one default can exist`
  }
  return undefined
}

export type PodPriorityDecision = { ok: true } | { ok: false; reason: string }

/**
 * The Priority plugin on a pod create: a named class sets spec.priority and spec.preemptionPolicy
 * (an unknown one is refused); without a name the global default class applies, or priority 0
 * with PreemptLowerPriority when there is none. A priority or policy the client set that differs
 * from the computed one is refused. `lookup` finds a class by name. Mutates the pod.
 */
export function admitPodPriority(
  pod: KubeObject,
  lookup: (name: string) => KubeObject | undefined,
  classes: readonly KubeObject[],
): PodPriorityDecision {
  const spec = (pod.spec ??= {}) as {
    priorityClassName?: unknown
    priority?: unknown
    preemptionPolicy?: unknown
  }
  let priority: number
  let policy: unknown
  if (typeof spec.priorityClassName !== 'string' || spec.priorityClassName === '') {
    const dpc = defaultClassOf(classes)
    if (dpc) {
      spec.priorityClassName = dpc.metadata.name
      priority = Number(asRecord(dpc).value ?? 0)
      policy = asRecord(dpc).preemptionPolicy
    } else {
      priority = DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS
      policy = 'PreemptLowerPriority'
    }
  } else {
    const pc = lookup(spec.priorityClassName)
    if (!pc)
      return { ok: false, reason: `no PriorityClass with name ${spec.priorityClassName} was found` }
    priority = Number(asRecord(pc).value ?? 0)
    policy = asRecord(pc).preemptionPolicy
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
    return {
      ok: false,
      reason: `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    }
  }
  spec.priority = priority
  if (policy !== undefined && policy !== null) {
    if (
      spec.preemptionPolicy !== undefined &&
      spec.preemptionPolicy !== null &&
      spec.preemptionPolicy !== policy
    ) {
      return {
        ok: false,
        reason: `the string value of PreemptionPolicy (${String(spec.preemptionPolicy)}) must not be provided in pod spec; priority admission controller computed ${String(policy)} from the given PriorityClass name`,
      }
    }
    spec.preemptionPolicy = policy
  }
  return { ok: true }
}

/**
 * The Priority plugin on a pod update: a priority or preemptionPolicy the update leaves out is
 * kept from the stored pod (admission set it on create). Mutates `next`.
 */
export function keepPodPriority(old: KubeObject, next: KubeObject): void {
  const before = (old.spec ?? {}) as { priority?: unknown; preemptionPolicy?: unknown }
  const after = next.spec as { priority?: unknown; preemptionPolicy?: unknown } | undefined
  if (!after) return
  if ((after.priority === undefined || after.priority === null) && before.priority !== undefined)
    after.priority = before.priority
  if (
    (after.preemptionPolicy === undefined || after.preemptionPolicy === null) &&
    before.preemptionPolicy !== undefined
  )
    after.preemptionPolicy = before.preemptionPolicy
}
