/** Tables for PodDisruptionBudget, ResourceQuota and LimitRange (columns of upstream's printers). */
import type { KubeObject } from '../apimachinery/types'
import { formatQuantity, quantityOf } from '../apimachinery/quantity'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'
import { asRecord } from '../apimachinery/json-value'

export const podDisruptionBudgetPrinter: Printer = {
  columns: [
    nameColumn,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column(
      'Allowed Disruptions',
      'integer',
      'Calculated number of pods that may be disrupted at this time.',
    ),
    ageColumn,
  ],
  cells(obj, now) {
    const spec = asRecord(obj.spec)
    const shown = (v: unknown) =>
      typeof v === 'number' || typeof v === 'string' ? String(v) : 'N/A'
    return [
      objectName(obj),
      shown(spec.minAvailable),
      shown(spec.maxUnavailable),
      Number(asRecord(obj.status).disruptionsAllowed ?? 0),
      objectAge(obj, now),
    ]
  },
}

const quantityText = (v: unknown) => {
  const q = quantityOf(v)
  return q ? formatQuantity(q) : '0'
}

export const resourceQuotaPrinter: Printer = {
  columns: [
    nameColumn,
    ageColumn,
    column(
      'Request',
      'string',
      'Request represents a minimum amount of cpu/memory that a container may consume.',
    ),
    column(
      'Limit',
      'string',
      'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
    ),
  ],
  cells(obj, now) {
    const status = asRecord(obj.status)
    const requests: string[] = []
    const limits: string[] = []
    for (const name of Object.keys(asRecord(asRecord(obj.spec).hard)).sort()) {
      const text = `${name}: ${quantityText(asRecord(status.used)[name])}/${quantityText(asRecord(status.hard)[name])}`
      ;(name.split('.')[0] === 'limits' && name.includes('.') ? limits : requests).push(text)
    }
    return [objectName(obj), objectAge(obj, now), requests.join(', '), limits.join(', ')]
  },
}

export const limitRangePrinter: Printer = {
  columns: [nameColumn, column('Created At', 'date', 'Date of creation of the LimitRange')],
  cells(obj) {
    return [objectName(obj), obj.metadata.creationTimestamp ?? '']
  },
}

export function policyPrinters(): [string, Printer][] {
  return [
    ['policy/poddisruptionbudgets', podDisruptionBudgetPrinter],
    ['/resourcequotas', resourceQuotaPrinter],
    ['/limitranges', limitRangePrinter],
  ]
}
