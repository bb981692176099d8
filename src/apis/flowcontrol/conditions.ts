/** The status conditions of FlowSchemas and PriorityLevelConfigurations, and the Dangling condition kube-apiserver keeps. */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord, isJsonObject } from '../../apimachinery/json-value'
import { duplicate, required, type FieldCause } from '../../apimachinery/validation'
import { danglingCondition } from './names'

export interface FlowcontrolCondition {
  type?: string
  status?: string
  lastTransitionTime?: string
  reason?: string
  message?: string
}

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
export function wantedDangling(levelName: string, levelExists: boolean): Required<Omit<FlowcontrolCondition, 'lastTransitionTime'>> {
  return levelExists
    ? { type: danglingCondition, status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" and it exists` }
    : { type: danglingCondition, status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" but there is no such object` }
}
