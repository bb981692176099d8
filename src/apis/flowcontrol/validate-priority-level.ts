/** ValidatePriorityLevelConfiguration (pkg/apis/flowcontrol/validation) for v1 requests, after the object's metadata. */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord, isJsonObject, type Json } from '../../apimachinery/json-value'
import {
  forbidden,
  invalid,
  notSupported,
  required,
  type FieldCause,
} from '../../apimachinery/field-errors'
import { exemptName, preserveZeroSharesAnnotation, priorityLevelKind } from './names'
import { bootstrapObject, defaulted } from './bootstrap'
import { specEqual } from './semantic'
import { validateConditions } from './conditions'

const enablements = ['Exempt', 'Limited']
const limitResponseTypes = ['Queue', 'Reject']
export const maxQueues = 10 * 1000 * 1000
/** shufflesharding.MaxHashBits: the hash bits a hand may need. */
export const maxHashBits = 60

/** shufflesharding.RequiredEntropyBits: the hash bits needed to deal a hand from a deck. */
export const requiredEntropyBits = (deckSize: number, handSize: number): number =>
  Math.ceil(Math.log2(deckSize) * handSize)

const int = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined)

export function validatePriorityLevel(obj: KubeObject): FieldCause[] {
  const causes: FieldCause[] = []
  if (
    obj.metadata.annotations &&
    Object.hasOwn(obj.metadata.annotations, preserveZeroSharesAnnotation)
  ) {
    causes.push(
      forbidden(
        'metadata.annotations',
        `annotation '${preserveZeroSharesAnnotation}' is forbidden`,
      ),
    )
  }
  const name = obj.metadata.name ?? ''
  const spec = asRecord(obj.spec)
  causes.push(
    ...validateSpec(name, spec),
    ...validateMandatory(name, spec),
    ...validateConditions(obj),
  )
  return causes
}

function validateSpec(name: string, spec: Json): FieldCause[] {
  const causes: FieldCause[] = []
  const type = String(spec.type ?? '')
  if ((name === exemptName) !== (type === 'Exempt'))
    causes.push(invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"))
  if (type === 'Exempt') {
    if (isJsonObject(spec.limited))
      causes.push(forbidden('spec.limited', 'must be nil if the type is not Limited'))
    if (isJsonObject(spec.exempt)) causes.push(...validateExempt(spec.exempt))
  } else if (type === 'Limited') {
    if (isJsonObject(spec.exempt))
      causes.push(forbidden('spec.exempt', 'must be nil if the type is Limited'))
    if (isJsonObject(spec.limited)) causes.push(...validateLimited(spec.limited))
    else causes.push(required('spec.limited', 'must not be empty when type is Limited'))
  } else causes.push(notSupported('spec.type', type, enablements))
  return causes
}

const percentOutOfRange = (v: number | undefined) => v !== undefined && !(v >= 0 && v <= 100)

function validateExempt(exempt: Json): FieldCause[] {
  const causes: FieldCause[] = []
  const shares = int(exempt.nominalConcurrencyShares)
  if (shares !== undefined && shares < 0)
    causes.push(
      invalid('spec.exempt.nominalConcurrencyShares', shares, 'must be a non-negative integer'),
    )
  const lendable = int(exempt.lendablePercent)
  if (percentOutOfRange(lendable))
    causes.push(
      invalid('spec.exempt.lendablePercent', lendable, 'must be between 0 and 100, inclusive'),
    )
  return causes
}

function validateLimited(limited: Json): FieldCause[] {
  const causes: FieldCause[] = []
  const shares = int(limited.nominalConcurrencyShares) ?? 0
  if (shares < 0)
    causes.push(
      invalid('spec.limited.nominalConcurrencyShares', shares, 'must be a non-negative integer'),
    )
  causes.push(...validateLimitResponse(asRecord(limited.limitResponse)))
  const lendable = int(limited.lendablePercent)
  if (percentOutOfRange(lendable))
    causes.push(
      invalid('spec.limited.lendablePercent', lendable, 'must be between 0 and 100, inclusive'),
    )
  const borrowing = int(limited.borrowingLimitPercent)
  if (borrowing !== undefined && borrowing < 0)
    causes.push(
      invalid(
        'spec.limited.borrowingLimitPercent',
        borrowing,
        'if specified, must be a non-negative integer',
      ),
    )
  return causes
}

function validateLimitResponse(response: Json): FieldCause[] {
  const at = 'spec.limited.limitResponse'
  const type = String(response.type ?? '')
  if (type === 'Reject')
    return isJsonObject(response.queuing)
      ? [forbidden(`${at}.queuing`, 'must be nil if limited.limitResponse.type is not Limited')]
      : []
  if (type !== 'Queue') return [notSupported(`${at}.type`, type, limitResponseTypes)]
  if (!isJsonObject(response.queuing))
    return [required(`${at}.queuing`, 'must not be empty if limited.limitResponse.type is Limited')]
  return validateQueuing(response.queuing, `${at}.queuing`)
}

/** ValidatePriorityLevelQueuingConfiguration: positive limits, and a hand the shuffle-sharding hash can deal. */
export function validateQueuing(queuing: Json, at: string): FieldCause[] {
  const causes: FieldCause[] = []
  const queueLengthLimit = int(queuing.queueLengthLimit) ?? 0
  if (queueLengthLimit <= 0)
    causes.push(invalid(`${at}.queueLengthLimit`, queueLengthLimit, 'must be positive'))
  const queues = int(queuing.queues) ?? 0
  if (queues <= 0) causes.push(invalid(`${at}.queues`, queues, 'must be positive'))
  else if (queues > maxQueues)
    causes.push(invalid(`${at}.queues`, queues, `must not be greater than ${maxQueues}`))
  const handSize = int(queuing.handSize) ?? 0
  if (handSize <= 0) causes.push(invalid(`${at}.handSize`, handSize, 'must be positive'))
  else if (handSize > queues)
    causes.push(
      invalid(`${at}.handSize`, handSize, `should not be greater than queues (${queues})`),
    )
  else if (requiredEntropyBits(queues, handSize) > maxHashBits) {
    causes.push(
      invalid(
        `${at}.handSize`,
        handSize,
        `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${maxHashBits}`,
      ),
    )
  }
  return causes
}

/**
 * ValidateIfMandatoryPriorityLevelConfigurationObject: `catch-all` keeps its fixed spec; `exempt`
 * too, but for its `exempt` block, which administrators may tune.
 */
function validateMandatory(name: string, spec: Json): FieldCause[] {
  const mandatory = bootstrapObject(priorityLevelKind, name)
  if (!mandatory?.mandatory) return []
  const want = asRecord(defaulted(mandatory.object).spec)
  if (name === exemptName) {
    if (specEqual({ ...spec, exempt: want.exempt }, want)) return []
    return [
      invalid(
        'spec',
        spec,
        `spec of '${name}' except the 'spec.exempt' field must equal the fixed value`,
      ),
    ]
  }
  return specEqual(spec, want)
    ? []
    : [invalid('spec', spec, `spec of '${name}' must equal the fixed value`)]
}
