/** ValidateResourceQuota's spec rules, with upstream's field paths and messages. */
import type { KubeObject } from '../../apimachinery/types'
import { formatQuantity, quantityOf } from '../../apimachinery/quantity'
import { invalid, notSupported, type FieldCause } from '../../apimachinery/field-errors'
import { validateQualifiedName } from '../../apimachinery/field-formats'
import { asRecord } from '../../apimachinery/json-value'

const integerResources = new Set([
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
])
const scopes = [
  'BestEffort',
  'CrossNamespacePodAffinity',
  'NotBestEffort',
  'NotTerminating',
  'PriorityClass',
  'Terminating',
]
const operators = ['In', 'NotIn', 'Exists', 'DoesNotExist']

const isInteger = (name: string) =>
  integerResources.has(name) ||
  name.startsWith('count/') ||
  (name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.'))

export function validateResourceQuota(obj: KubeObject): FieldCause[] {
  const causes: FieldCause[] = []
  const spec = asRecord(obj.spec)
  for (const [name, raw] of Object.entries(asRecord(spec.hard))) {
    const path = `spec.hard[${name}]`
    causes.push(
      ...validateQualifiedName(
        name.startsWith('count/') ? name.slice('count/'.length) : name,
        path,
      ),
    )
    const q = quantityOf(raw)
    if (!q) continue
    if (q.nanos < 0n)
      causes.push(invalid(path, formatQuantity(q), 'must be greater than or equal to 0'))
    if (isInteger(name) && q.nanos % 1_000_000_000n !== 0n)
      causes.push(invalid(path, formatQuantity(q), 'must be an integer'))
  }
  const listed = Array.isArray(spec.scopes) ? spec.scopes : []
  listed.forEach((s) => {
    if (!scopes.includes(String(s))) causes.push(notSupported('spec.scopes', s, scopes))
  })
  const expressions = asRecord(spec.scopeSelector).matchExpressions
  if (Array.isArray(expressions)) {
    expressions.forEach((raw, i) => {
      const e = asRecord(raw)
      const path = `spec.scopeSelector.matchExpressions[${i}]`
      if (!scopes.includes(String(e.scopeName)))
        causes.push(notSupported(`${path}.scopeName`, e.scopeName, scopes))
      if (!operators.includes(String(e.operator)))
        causes.push(notSupported(`${path}.operator`, e.operator, operators))
      const values = Array.isArray(e.values) ? e.values : []
      if ((e.operator === 'In' || e.operator === 'NotIn') && !values.length)
        causes.push(
          invalid(
            `${path}.values`,
            values,
            "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
          ),
        )
      if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && values.length)
        causes.push(
          invalid(
            `${path}.values`,
            values,
            "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
          ),
        )
    })
  }
  return causes
}
