/**
 * LimitRange objects: SetDefaults_LimitRangeItem (a Container item's default limit falls back to
 * its max, its default request to its default limit, then to its min) and ValidateLimitRange's
 * rules, with upstream's field paths and messages.
 */
import type { KubeObject } from '../../apimachinery/types'
import {
  cmpQuantity,
  formatQuantity,
  quantityListOf,
  quantityMilli,
  type QuantityList,
} from '../../apimachinery/quantity'
import { duplicate, forbidden, invalid, type FieldCause } from '../../apimachinery/field-errors'
import { validateQualifiedName } from '../../apimachinery/field-formats'
import { asRecord, type Json } from '../../apimachinery/json-value'

export function defaultLimitRange(obj: KubeObject): void {
  const limits = asRecord(obj.spec).limits
  if (!Array.isArray(limits)) return
  for (const raw of limits) {
    if (!raw || typeof raw !== 'object' || (raw as Json).type !== 'Container') continue
    const item = raw as Json
    const dflt = { ...asRecord(item.default) }
    const request = { ...asRecord(item.defaultRequest) }
    for (const [k, v] of Object.entries(asRecord(item.max))) if (!(k in dflt)) dflt[k] = v
    for (const [k, v] of Object.entries(dflt)) if (!(k in request)) request[k] = v
    for (const [k, v] of Object.entries(asRecord(item.min))) if (!(k in request)) request[k] = v
    if (Object.keys(dflt).length) item.default = dflt
    if (Object.keys(request).length) item.defaultRequest = request
  }
}

const q = formatQuantity

const standardLimitTypes = ['Pod', 'Container', 'PersistentVolumeClaim']

/** validateLimitRangeTypeName: a qualified name, and one of the standard types unless it has a prefix. */
function validateLimitRangeType(type: string, path: string): FieldCause[] {
  const causes = validateQualifiedName(type, path)
  if (causes.length) return causes
  if (!type.includes('/') && !standardLimitTypes.includes(type))
    return [invalid(path, type, 'must be a standard limit type or fully qualified')]
  return []
}

/** ValidateLimitRange's spec rules. */
export function validateLimitRange(obj: KubeObject): FieldCause[] {
  const causes: FieldCause[] = []
  const limits = asRecord(obj.spec).limits
  if (!Array.isArray(limits)) return causes
  const seenTypes = new Set<string>()
  limits.forEach((raw, i) => {
    const item = asRecord(raw)
    const path = `spec.limits[${i}]`
    const type = typeof item.type === 'string' ? item.type : ''
    causes.push(...validateLimitRangeType(type, `${path}.type`))
    if (seenTypes.has(type)) causes.push(duplicate(`${path}.type`, type))
    seenTypes.add(type)
    const lists: Record<string, QuantityList> = {}
    for (const field of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) {
      lists[field] = quantityListOf(item[field])
      for (const k of Object.keys(asRecord(item[field])))
        causes.push(...validateQualifiedName(k, `${path}.${field}[${k}]`))
    }
    const {
      max,
      min,
      default: dflt,
      defaultRequest,
      maxLimitRequestRatio,
    } = lists as Record<string, QuantityList>
    if (type === 'Pod') {
      if (Object.keys(dflt!).length)
        causes.push(forbidden(`${path}.default`, "may not be specified when `type` is 'Pod'"))
      if (Object.keys(defaultRequest!).length)
        causes.push(
          forbidden(`${path}.defaultRequest`, "may not be specified when `type` is 'Pod'"),
        )
    }
    for (const [k, lo] of Object.entries(min!)) {
      const hi = max![k]
      if (hi && cmpQuantity(lo, hi) > 0)
        causes.push(
          invalid(
            `${path}.min[${k}]`,
            q(lo),
            `min value ${q(lo)} is greater than max value ${q(hi)}`,
          ),
        )
    }
    for (const [k, d] of Object.entries(dflt!)) {
      if (min![k] && cmpQuantity(min![k]!, d) > 0)
        causes.push(
          invalid(
            `${path}.default[${k}]`,
            q(d),
            `min value ${q(min![k]!)} is greater than default value ${q(d)}`,
          ),
        )
      if (max![k] && cmpQuantity(d, max![k]!) > 0)
        causes.push(
          invalid(
            `${path}.default[${k}]`,
            q(d),
            `default value ${q(d)} is greater than max value ${q(max![k]!)}`,
          ),
        )
    }
    for (const [k, r] of Object.entries(defaultRequest!)) {
      if (min![k] && cmpQuantity(min![k]!, r) > 0)
        causes.push(
          invalid(
            `${path}.defaultRequest[${k}]`,
            q(r),
            `min value ${q(min![k]!)} is greater than default request value ${q(r)}`,
          ),
        )
      if (max![k] && cmpQuantity(r, max![k]!) > 0)
        causes.push(
          invalid(
            `${path}.defaultRequest[${k}]`,
            q(r),
            `default request value ${q(r)} is greater than max value ${q(max![k]!)}`,
          ),
        )
      if (dflt![k] && cmpQuantity(r, dflt![k]!) > 0)
        causes.push(
          invalid(
            `${path}.defaultRequest[${k}]`,
            q(r),
            `default request value ${q(r)} is greater than default limit value ${q(dflt![k]!)}`,
          ),
        )
    }
    for (const [k, ratio] of Object.entries(maxLimitRequestRatio!)) {
      if (quantityMilli(ratio) < 1000n)
        causes.push(
          invalid(
            `${path}.maxLimitRequestRatio[${k}]`,
            q(ratio),
            `ratio ${q(ratio)} is less than 1`,
          ),
        )
      const hi = max![k]
      const lo = min![k]
      if (hi && lo && quantityMilli(lo) > 0n) {
        const bound = Number(quantityMilli(hi)) / Number(quantityMilli(lo))
        if (Number(quantityMilli(ratio)) / 1000 > bound)
          causes.push(
            invalid(
              `${path}.maxLimitRequestRatio[${k}]`,
              q(ratio),
              `ratio ${q(ratio)} is greater than max/min = ${bound.toFixed(6)}`,
            ),
          )
      }
    }
  })
  return causes
}
