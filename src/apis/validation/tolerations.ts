import type { PodSpec } from './shapes'
import { type FieldCause, invalid, notSupported } from '../../apimachinery/field-errors'
import { isQualifiedName, isValidLabelValue } from '../../apimachinery/field-formats'

/** A pod's tolerations, as ValidateTolerations (pkg/apis/core/validation) checks them. */

const operators = ['Equal', 'Exists']
const effects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute']

type Toleration = NonNullable<PodSpec['tolerations']>[number]

// Upstream shows the whole toleration, as Go's %#v prints core.Toleration (a set tolerationSeconds
// is a pointer there, printed as its address; here as its value).
function goToleration(t: Toleration): string {
  const seconds = t.tolerationSeconds === undefined ? 'nil' : String(t.tolerationSeconds)
  return `core.Toleration{Key:${JSON.stringify(t.key ?? '')}, Operator:${JSON.stringify(t.operator ?? '')}, Value:${JSON.stringify(t.value ?? '')}, Effect:${JSON.stringify(t.effect ?? '')}, TolerationSeconds:(*int64)(${seconds})}`
}

export function validateTolerations(
  tolerations: PodSpec['tolerations'],
  path: string,
): FieldCause[] {
  const causes: FieldCause[] = []
  for (const [i, t] of (tolerations ?? []).entries()) {
    const at = `${path}[${i}]`
    const key = t.key ?? ''
    const operator = t.operator ?? ''
    const value = t.value ?? ''
    const effect = t.effect ?? ''
    if (key) causes.push(...isQualifiedName(key).map((m) => invalid(`${at}.key`, key, m)))
    // An empty key with Exists and no value tolerates every taint; any other operator needs a key.
    if (!key && operator !== 'Exists') {
      causes.push(
        invalid(
          `${at}.operator`,
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      )
    }
    if (t.tolerationSeconds !== undefined && effect !== 'NoExecute') {
      causes.push(
        invalid(
          `${at}.effect`,
          effect,
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      )
    }
    if (operator === 'Equal' || operator === '') {
      const errs = isValidLabelValue(value)
      if (errs.length) causes.push(invalid(`${at}.operator`, value, errs.join(';')))
    } else if (operator === 'Exists') {
      if (value)
        causes.push(
          invalid(
            `${at}.operator`,
            t,
            "value must be empty when `operator` is 'Exists'",
            goToleration(t),
          ),
        )
    } else {
      causes.push(notSupported(`${at}.operator`, operator, operators))
    }
    if (effect && !effects.includes(effect))
      causes.push(notSupported(`${at}.effect`, effect, effects))
  }
  return causes
}
