/** The flowcontrol.apiserver.k8s.io/v1 kinds' strategies, by resource. */
import type { KindStrategy } from '../kind-strategy'
import { defaultFlowcontrolObject } from './defaults'
import { flowSchemaKind, notEnforcedWarning, priorityLevelKind } from './names'
import { validateFlowcontrolObject, validateFlowcontrolStatus } from './validate'

const flowcontrolStrategy = (kind: string): KindStrategy => ({
  defaults: (obj) => defaultFlowcontrolObject(kind, obj),
  validate: (obj) => validateFlowcontrolObject(kind, obj),
  validateStatus: validateFlowcontrolStatus,
  warnings: [notEnforcedWarning],
})

export const flowcontrolStrategies: Record<string, KindStrategy> = {
  flowschemas: flowcontrolStrategy(flowSchemaKind),
  prioritylevelconfigurations: flowcontrolStrategy(priorityLevelKind),
}
