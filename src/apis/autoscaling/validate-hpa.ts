/** ValidateHorizontalPodAutoscaler's spec rules (pkg/apis/autoscaling/validation), with upstream's paths and messages. */
import type { KubeObject } from '../../apimachinery/types'
import {
  forbidden,
  invalid,
  notSupported,
  required,
  type FieldCause,
} from '../../apimachinery/field-errors'
import { isDns1123Label, isValidPathSegmentName } from '../../apimachinery/field-formats'
import { quantityOf } from '../../apimachinery/quantity'
import { asRecord } from '../../apimachinery/json-value'

/** The longest scaling policy period and stabilization window upstream accepts, in seconds. */
export const MAX_PERIOD_SECONDS = 1800
export const MAX_STABILIZATION_WINDOW_SECONDS = 3600

const metricSourceTypes = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource']
const sourceFields: Record<string, string> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
}
const selectPolicies = ['Disabled', 'Max', 'Min']
const policyTypes = ['Percent', 'Pods']

const isSet = (v: unknown) => v !== undefined && v !== null
const num = (v: unknown) => (typeof v === 'number' ? v : 0)

export function validateHorizontalPodAutoscaler(obj: KubeObject): FieldCause[] {
  const spec = asRecord(obj.spec)
  const causes: FieldCause[] = []
  const min = spec.minReplicas
  const max = num(spec.maxReplicas)
  if (isSet(min) && num(min) < 1)
    causes.push(invalid('spec.minReplicas', min, 'must be greater than or equal to 1'))
  if (max < 1) causes.push(invalid('spec.maxReplicas', max, 'must be greater than 0'))
  if (isSet(min) && max < num(min))
    causes.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'))
  causes.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, 'spec.scaleTargetRef'))
  const metrics = Array.isArray(spec.metrics) ? spec.metrics : []
  metrics.forEach((m, i) => causes.push(...validateMetricSpec(asRecord(m), `spec.metrics[${i}]`)))
  if (isSet(spec.behavior)) {
    const behavior = asRecord(spec.behavior)
    for (const direction of ['scaleUp', 'scaleDown']) {
      if (isSet(behavior[direction]))
        causes.push(
          ...validateScalingRules(asRecord(behavior[direction]), `spec.behavior.${direction}`),
        )
    }
  }
  return causes
}

export function validateHorizontalPodAutoscalerStatus(obj: KubeObject): FieldCause[] {
  const status = asRecord(obj.status)
  const causes: FieldCause[] = []
  for (const f of ['currentReplicas', 'desiredReplicas'])
    if (num(status[f]) < 0)
      causes.push(invalid(`status.${f}`, status[f], 'must be greater than or equal to 0'))
  return causes
}

function validateCrossVersionObjectReference(ref: unknown, path: string): FieldCause[] {
  const r = asRecord(ref)
  const causes: FieldCause[] = []
  for (const f of ['kind', 'name']) {
    const v = typeof r[f] === 'string' ? (r[f] as string) : ''
    if (!v) causes.push(required(`${path}.${f}`))
    else for (const msg of isValidPathSegmentName(v)) causes.push(invalid(`${path}.${f}`, v, msg))
  }
  return causes
}

function validateMetricSpec(spec: Record<string, unknown>, path: string): FieldCause[] {
  const causes: FieldCause[] = []
  const type = typeof spec.type === 'string' ? spec.type : ''
  if (!type) causes.push(required(`${path}.type`, 'must specify a metric source type'))
  if (!metricSourceTypes.includes(type))
    causes.push(notSupported(`${path}.type`, type, metricSourceTypes))
  const present = Object.values(sourceFields).filter((f) => isSet(spec[f]))
  const first = present[0]
  if (first) causes.push(...validateSource(first, asRecord(spec[first]), `${path}.${first}`))
  const expected = sourceFields[type]
  if (expected) {
    if (!isSet(spec[expected]))
      causes.push(
        required(`${path}.${expected}`, 'must populate information for the given metric source'),
      )
  } else {
    causes.push(notSupported(`${path}.type`, type, metricSourceTypes))
  }
  if (present.length > 1)
    for (const f of present.filter((f) => f !== expected))
      causes.push(forbidden(`${path}.${f}`, 'must populate the given metric source only'))
  return causes
}

function validateSource(kind: string, src: Record<string, unknown>, path: string): FieldCause[] {
  const target = asRecord(src.target)
  const causes: FieldCause[] = []
  const targetPath = `${path}.target`
  if (kind === 'object')
    causes.push(
      ...validateCrossVersionObjectReference(src.describedObject, `${path}.describedObject`),
    )
  if (kind === 'object' || kind === 'pods' || kind === 'external')
    causes.push(...validateMetricIdentifier(asRecord(src.metric), `${path}.metric`))
  if (kind === 'resource' || kind === 'containerResource') {
    if (!src.name) causes.push(required(`${path}.name`, 'must specify a resource name'))
  }
  if (kind === 'containerResource') {
    const container = typeof src.container === 'string' ? src.container : ''
    if (!container) causes.push(required(`${path}.container`, 'must specify a container'))
    else
      for (const msg of isDns1123Label(container))
        causes.push(invalid(`${path}.container`, container, msg))
  }
  causes.push(...validateMetricTarget(target, targetPath))
  const { value, averageValue, averageUtilization } = target
  if (kind === 'object' && !isSet(value) && !isSet(averageValue))
    causes.push(
      required(`${targetPath}.averageValue`, 'must set either a target value or averageValue'),
    )
  if (kind === 'external') {
    if (!isSet(value) && !isSet(averageValue))
      causes.push(
        required(
          `${targetPath}.averageValue`,
          'must set either a target value for metric or a per-pod target',
        ),
      )
    if (isSet(value) && isSet(averageValue))
      causes.push(
        forbidden(
          `${targetPath}.value`,
          'may not set both a target value for metric and a per-pod target',
        ),
      )
  }
  if (kind === 'pods' && !isSet(averageValue))
    causes.push(
      required(`${targetPath}.averageValue`, 'must specify a positive target averageValue'),
    )
  if (kind === 'resource' || kind === 'containerResource') {
    if (!isSet(averageUtilization) && !isSet(averageValue))
      causes.push(
        required(
          `${targetPath}.averageUtilization`,
          'must set either a target raw value or a target utilization',
        ),
      )
    if (isSet(averageUtilization) && isSet(averageValue))
      causes.push(
        forbidden(
          `${targetPath}.averageValue`,
          'may not set both a target raw value and a target utilization',
        ),
      )
  }
  return causes
}

function validateMetricTarget(target: Record<string, unknown>, path: string): FieldCause[] {
  const causes: FieldCause[] = []
  const type = typeof target.type === 'string' ? target.type : ''
  if (!type) causes.push(required(`${path}.type`, 'must specify a metric target type'))
  if (!['Utilization', 'Value', 'AverageValue'].includes(type))
    causes.push(invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'))
  for (const f of ['value', 'averageValue']) {
    if (!isSet(target[f])) continue
    const q = quantityOf(target[f])
    if (!q || q.nanos <= 0n) causes.push(invalid(`${path}.${f}`, target[f], 'must be positive'))
  }
  if (isSet(target.averageUtilization) && num(target.averageUtilization) < 1)
    causes.push(
      invalid(`${path}.averageUtilization`, target.averageUtilization, 'must be greater than 0'),
    )
  return causes
}

function validateMetricIdentifier(id: Record<string, unknown>, path: string): FieldCause[] {
  const name = typeof id.name === 'string' ? id.name : ''
  if (!name) return [required(`${path}.name`, 'must specify a metric name')]
  return isValidPathSegmentName(name).map((msg) => invalid(`${path}.name`, name, msg))
}

function validateScalingRules(rules: Record<string, unknown>, path: string): FieldCause[] {
  const causes: FieldCause[] = []
  const window = rules.stabilizationWindowSeconds
  if (isSet(window) && num(window) < 0)
    causes.push(
      invalid(
        `${path}.stabilizationWindowSeconds`,
        window,
        'must be greater than or equal to zero',
      ),
    )
  if (isSet(window) && num(window) > MAX_STABILIZATION_WINDOW_SECONDS)
    causes.push(
      invalid(
        `${path}.stabilizationWindowSeconds`,
        window,
        `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`,
      ),
    )
  if (isSet(rules.selectPolicy) && !selectPolicies.includes(String(rules.selectPolicy)))
    causes.push(notSupported(`${path}.selectPolicy`, rules.selectPolicy, selectPolicies))
  const policies = Array.isArray(rules.policies) ? rules.policies : []
  if (!policies.length)
    causes.push(required(`${path}.policies`, 'must specify at least one Policy'))
  policies.forEach((p, i) => {
    const policy = asRecord(p)
    const at = `${path}.policies[${i}]`
    if (!policyTypes.includes(String(policy.type ?? '')))
      causes.push(notSupported(`${at}.type`, policy.type ?? '', policyTypes))
    if (num(policy.value) <= 0)
      causes.push(invalid(`${at}.value`, num(policy.value), 'must be greater than zero'))
    if (num(policy.periodSeconds) <= 0)
      causes.push(
        invalid(`${at}.periodSeconds`, num(policy.periodSeconds), 'must be greater than zero'),
      )
    if (num(policy.periodSeconds) > MAX_PERIOD_SECONDS)
      causes.push(
        invalid(
          `${at}.periodSeconds`,
          num(policy.periodSeconds),
          `must be less than or equal to ${MAX_PERIOD_SECONDS}`,
        ),
      )
  })
  return causes
}
