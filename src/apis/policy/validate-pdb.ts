/** ValidatePodDisruptionBudget's spec rules (pkg/apis/policy/validation), with upstream's paths and messages. */
import type { KubeObject } from '../../apimachinery/types'
import { goIntOrString } from '../../apimachinery/go-format'
import { invalid, notSupported, type FieldCause } from '../../apimachinery/field-errors'
import { notMoreThan100Percent, validatePositiveIntOrPercent } from '../validation/apps'
import { validateMetaLabelSelector } from '../validation/selectors'
import { asRecord } from '../../apimachinery/json-value'

const intOrString = (v: unknown): v is number | string =>
  typeof v === 'number' || typeof v === 'string'
const policies = ['AlwaysAllow', 'IfHealthyBudget']

export function validatePodDisruptionBudget(obj: KubeObject): FieldCause[] {
  const causes: FieldCause[] = []
  const spec = asRecord(obj.spec)
  const { minAvailable, maxUnavailable } = spec
  if (intOrString(minAvailable) && intOrString(maxUnavailable)) {
    causes.push(
      invalid(
        'spec',
        spec,
        'minAvailable and maxUnavailable cannot be both set',
        `policy.PodDisruptionBudgetSpec{MinAvailable:${goIntOrString(minAvailable)}, MaxUnavailable:${goIntOrString(maxUnavailable)}}`,
      ),
    )
  }
  for (const [field, v] of [
    ['minAvailable', minAvailable],
    ['maxUnavailable', maxUnavailable],
  ] as const) {
    if (!intOrString(v)) continue
    causes.push(
      ...validatePositiveIntOrPercent(v, `spec.${field}`),
      ...notMoreThan100Percent(v, `spec.${field}`),
    )
  }
  if (spec.selector !== undefined && spec.selector !== null)
    causes.push(...validateMetaLabelSelector(spec.selector, 'spec.selector'))
  const policy = spec.unhealthyPodEvictionPolicy
  if (policy !== undefined && policy !== null && !policies.includes(String(policy)))
    causes.push(notSupported('spec.unhealthyPodEvictionPolicy', policy, policies))
  return causes
}
