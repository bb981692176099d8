/** The HorizontalPodAutoscaler table (columns and TARGETS text of upstream's printer). */
import type { KubeObject } from '../apimachinery/types'
import { formatQuantity, quantityOf } from '../apimachinery/quantity'
import { asRecord, type Json } from '../apimachinery/json-value'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'

const quantityText = (v: unknown) => {
  const q = quantityOf(v)
  return q ? formatQuantity(q) : String(v ?? '')
}

/** One metric's `current/target`, `<unknown>` until the controller has read it. */
function metricText(spec: Json, status: Json | undefined): string {
  const source = (field: string) => asRecord(spec[field])
  const current = (field: string) =>
    status && status[field] ? asRecord(asRecord(status[field]).current) : undefined
  const unknown = '<unknown>'
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const field = spec.type === 'External' ? 'external' : 'object'
      const target = asRecord(source(field).target)
      const now = current(field)
      if (target.averageValue !== undefined && target.averageValue !== null)
        return `${now?.averageValue !== undefined ? quantityText(now.averageValue) : unknown}/${quantityText(target.averageValue)} (avg)`
      return `${now ? quantityText(now.value) : unknown}/${quantityText(target.value)}`
    }
    case 'Pods': {
      const now = current('pods')
      return `${now ? quantityText(now.averageValue) : unknown}/${quantityText(asRecord(source('pods').target).averageValue)}`
    }
    case 'Resource':
    case 'ContainerResource': {
      const field = spec.type === 'Resource' ? 'resource' : 'containerResource'
      const src = source(field)
      const name = String(src.name ?? '')
      const target = asRecord(src.target)
      const now = current(field)
      if (target.averageValue !== undefined && target.averageValue !== null)
        return `${name}: ${now ? quantityText(now.averageValue) : unknown}/${quantityText(target.averageValue)}`
      const used =
        now?.averageUtilization !== undefined && now.averageUtilization !== null
          ? `${String(now.averageUtilization)}%`
          : unknown
      const goal =
        target.averageUtilization !== undefined && target.averageUtilization !== null
          ? `${String(target.averageUtilization)}%`
          : '<auto>'
      return `${name}: ${used}/${goal}`
    }
    default:
      return '<unknown type>'
  }
}

/** formatHPAMetrics: the first two metrics, then how many more. */
export function formatHpaMetrics(obj: KubeObject): string {
  const specs = (asRecord(obj.spec).metrics ?? []) as Json[]
  if (!Array.isArray(specs) || !specs.length) return '<none>'
  const statuses = (asRecord(obj.status).currentMetrics ?? []) as Json[]
  const list = specs.map((s, i) =>
    metricText(
      asRecord(s),
      Array.isArray(statuses) && statuses[i] ? asRecord(statuses[i]) : undefined,
    ),
  )
  return list.length > 2
    ? `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...`
    : list.join(', ')
}

export const horizontalPodAutoscalerPrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'Reference',
      'string',
      'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.',
    ),
    column(
      'Targets',
      'string',
      'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).',
    ),
    column(
      'MinPods',
      'string',
      'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.',
    ),
    column(
      'MaxPods',
      'integer',
      'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.',
    ),
    column(
      'Replicas',
      'integer',
      'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.',
    ),
    ageColumn,
  ],
  cells(obj, now) {
    const spec = asRecord(obj.spec)
    const ref = asRecord(spec.scaleTargetRef)
    const min =
      spec.minReplicas === undefined || spec.minReplicas === null
        ? '<unset>'
        : String(spec.minReplicas)
    return [
      objectName(obj),
      `${String(ref.kind ?? '')}/${String(ref.name ?? '')}`,
      formatHpaMetrics(obj),
      min,
      Number(spec.maxReplicas ?? 0),
      Number(asRecord(obj.status).currentReplicas ?? 0),
      objectAge(obj, now),
    ]
  },
}
