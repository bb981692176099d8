/**
 * The status conditions of FlowSchemas and PriorityLevelConfigurations: the Dangling condition
 * kube-apiserver keeps, and the Enforced condition saying this server handles no request by them.
 */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord, isJsonObject } from '../../apimachinery/json-value'
import { duplicate, required, type FieldCause } from '../../apimachinery/field-errors'
import { danglingCondition, enforcedCondition } from './names'

export interface FlowcontrolCondition {
  type?: string
  status?: string
  lastTransitionTime?: string
  reason?: string
  message?: string
}

/** A condition as a controller wants it, but its transition time. */
type WantedCondition = Required<Omit<FlowcontrolCondition, 'lastTransitionTime'>>

export function conditionsOf(obj: KubeObject): FlowcontrolCondition[] {
  const conditions = asRecord(obj.status).conditions
  return Array.isArray(conditions) ? conditions.filter(isJsonObject) : []
}

/** ValidateFlowSchemaStatus / ValidatePriorityLevelConfigurationStatus: one condition per type, each with a type. */
export function validateConditions(obj: KubeObject): FieldCause[] {
  const causes: FieldCause[] = []
  const seen = new Set<string>()
  conditionsOf(obj).forEach((c, i) => {
    const type = typeof c.type === 'string' ? c.type : ''
    if (seen.has(type)) causes.push(duplicate(`status.conditions[${i}].type`, type))
    seen.add(type)
    if (!type) causes.push(required(`status.conditions[${i}].type`, 'must not be empty'))
  })
  return causes
}

/** The Dangling condition kube-apiserver's APF controller wants on a FlowSchema, but its transition time. */
export function wantedDangling(levelName: string, levelExists: boolean): WantedCondition {
  return levelExists
    ? {
        type: danglingCondition,
        status: 'False',
        reason: 'Found',
        message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" and it exists`,
      }
    : {
        type: danglingCondition,
        status: 'True',
        reason: 'NotFound',
        message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" but there is no such object`,
      }
}

/** The Enforced condition every FlowSchema and PriorityLevelConfiguration carries here. */
export const notEnforcedCondition: WantedCondition = {
  type: enforcedCondition,
  status: 'False',
  reason: 'NotEnforced',
  message:
    'This server does not classify, queue or shed requests by API Priority and Fairness: this object is stored and validated only',
}

/**
 * The conditions with each wanted one in place, those changed or added stamped `now`; undefined
 * when every wanted condition is already there as wanted.
 */
export function withConditions(
  have: FlowcontrolCondition[],
  wanted: WantedCondition[],
  now: string,
): FlowcontrolCondition[] | undefined {
  let changed = false
  const next = [...have]
  for (const want of wanted) {
    const i = next.findIndex((c) => c.type === want.type)
    const current = next[i]
    if (
      current &&
      current.status === want.status &&
      current.reason === want.reason &&
      current.message === want.message
    )
      continue
    changed = true
    const stamped = { ...want, lastTransitionTime: now }
    if (current) next[i] = stamped
    else next.push(stamped)
  }
  return changed ? next : undefined
}
