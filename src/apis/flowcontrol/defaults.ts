/** flowcontrol.apiserver.k8s.io/v1 defaulting (SetObjectDefaults_FlowSchema, _PriorityLevelConfiguration), plus the not-enforced marker. */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord, isJsonObject, type Json } from '../../apimachinery/json-value'
import { enforcementAnnotation, flowSchemaKind, notEnforced, priorityLevelKind } from './names'

export const defaultMatchingPrecedence = 1000
export const defaultNominalConcurrencyShares = 30
export const defaultQueues = 64
export const defaultHandSize = 8
export const defaultQueueLengthLimit = 50

const unset = (v: unknown) => v === undefined || v === null
/** A zero int32 reads as unset, as Go's defaulting of a non-pointer field sees it. */
const zeroOrUnset = (v: unknown) => unset(v) || v === 0

/** SetDefaults_FlowSchemaSpec: matchingPrecedence 1000 when unset. */
export function defaultFlowSchemaSpec(spec: Json): void {
  if (zeroOrUnset(spec.matchingPrecedence)) spec.matchingPrecedence = defaultMatchingPrecedence
}

/**
 * The v1 PriorityLevelConfiguration defaults: a Limited level's nominalConcurrencyShares 30 when
 * unset (an explicit 0 stays) and lendablePercent 0; an exempt block's shares and lendablePercent
 * 0; a queuing block's queues 64, handSize 8 and queueLengthLimit 50.
 */
export function defaultPriorityLevelSpec(spec: Json): void {
  if (isJsonObject(spec.limited)) {
    const limited = spec.limited
    if (unset(limited.nominalConcurrencyShares))
      limited.nominalConcurrencyShares = defaultNominalConcurrencyShares
    if (unset(limited.lendablePercent)) limited.lendablePercent = 0
    const queuing = asRecord(limited.limitResponse).queuing
    if (isJsonObject(queuing)) {
      if (zeroOrUnset(queuing.handSize)) queuing.handSize = defaultHandSize
      if (zeroOrUnset(queuing.queues)) queuing.queues = defaultQueues
      if (zeroOrUnset(queuing.queueLengthLimit)) queuing.queueLengthLimit = defaultQueueLengthLimit
    }
  }
  if (isJsonObject(spec.exempt)) {
    if (unset(spec.exempt.nominalConcurrencyShares)) spec.exempt.nominalConcurrencyShares = 0
    if (unset(spec.exempt.lendablePercent)) spec.exempt.lendablePercent = 0
  }
}

/** Defaults a FlowSchema or PriorityLevelConfiguration and marks it not enforced (kept on every write). */
export function defaultFlowcontrolObject(kind: string, obj: KubeObject): void {
  const spec = asRecord((obj.spec ??= {}))
  if (kind === flowSchemaKind) defaultFlowSchemaSpec(spec)
  if (kind === priorityLevelKind) defaultPriorityLevelSpec(spec)
  obj.metadata.annotations = { ...obj.metadata.annotations, [enforcementAnnotation]: notEnforced }
}
