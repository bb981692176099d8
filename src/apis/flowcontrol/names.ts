/**
 * flowcontrol.apiserver.k8s.io/v1 (API Priority and Fairness): the names and markers its objects
 * share. This server stores, defaults and validates FlowSchemas and PriorityLevelConfigurations
 * as kube-apiserver does, but queues and sheds no request by them, and says so on every object
 * and every write.
 */
import type { KubeObject } from '../../apimachinery/types'

export const flowcontrolGroup = 'flowcontrol.apiserver.k8s.io'
export const flowSchemaKind = 'FlowSchema'
export const priorityLevelKind = 'PriorityLevelConfiguration'

/** The names of the mandatory objects (FlowSchemas and PriorityLevelConfigurations alike). */
export const exemptName = 'exempt'
export const catchAllName = 'catch-all'

/** The annotation that says whether kube-apiserver keeps a bootstrap object's spec up to date. */
export const autoUpdateAnnotation = 'apf.kubernetes.io/autoupdate-spec'
/** The v1beta3 round-trip annotation, which no stored object may carry. */
export const preserveZeroSharesAnnotation =
  'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares'

/** The FlowSchema condition saying its priority level is missing. */
export const danglingCondition = 'Dangling'
/** The condition on FlowSchemas and PriorityLevelConfigurations saying whether requests are handled by them. */
export const enforcedCondition = 'Enforced'

export const enforcementAnnotation = 'flowcontrol.edgeplane.dev/enforced'
export const notEnforced =
  'false: this server does not queue, limit or shed requests by API Priority and Fairness; this object is stored and validated only'
export const notEnforcedWarning =
  'API Priority and Fairness is not enforced: FlowSchemas and PriorityLevelConfigurations are stored and validated, but no request is queued, limited or rejected by them'

/** Go's strconv.ParseBool: undefined when the text is not a boolean. */
export function parseGoBool(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false
  return undefined
}

/** The auto-update annotation's value as a boolean, undefined when absent or not a boolean. */
export const autoUpdateOf = (obj: KubeObject): boolean | undefined =>
  parseGoBool(obj.metadata.annotations?.[autoUpdateAnnotation])
