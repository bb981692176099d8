import type { KubeObject } from '../../apimachinery/types'
import type { FieldCause } from '../../apimachinery/field-errors'
import { flowSchemaKind, priorityLevelKind } from './names'
import { validateFlowSchema } from './validate-flow-schema'
import { validatePriorityLevel } from './validate-priority-level'
import { validateConditions } from './conditions'

/** Create and update validation of a flowcontrol.apiserver.k8s.io/v1 object, after its metadata. */
export function validateFlowcontrolObject(kind: string, obj: KubeObject): FieldCause[] {
  if (kind === flowSchemaKind) return validateFlowSchema(obj)
  if (kind === priorityLevelKind) return validatePriorityLevel(obj)
  return []
}

/** What a write to the status subresource is checked for: its conditions. */
export const validateFlowcontrolStatus = (obj: KubeObject): FieldCause[] => validateConditions(obj)
