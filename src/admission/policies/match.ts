/**
 * Which policies and bindings a request meets (k8s.io/apiserver/pkg/admission/plugin/policy/matching):
 * the namespace and object selectors, then the excluded rules, then the resource rules with their
 * resource names. A binding without matchResources meets every request its policy does.
 */
import type { KubeObject } from '../../apimachinery/types'
import type { MatchResources, NamedRule } from '../../apis/admissionregistration/admission-policy'
import {
  namespaceMatches,
  objectMatches,
  ruleMatches,
  type RuleAttributes,
} from '../webhooks/match'
import type { ConfiguredPolicy } from './configurations'

export interface MatchRequest {
  attributes: RuleAttributes
  /** the object's name (a create's generated one included) */
  name: string
  object?: KubeObject
  oldObject?: KubeObject
  namespaceLabels?: Record<string, string>
}

function ruleNames(rule: NamedRule, a: RuleAttributes, name: string): boolean {
  return ruleMatches(rule, a) && (!rule.resourceNames?.length || rule.resourceNames.includes(name))
}

export function resourcesMatch(match: MatchResources, r: MatchRequest): boolean {
  if (!namespaceMatches(match, r.attributes, r.namespaceLabels, r.object, r.oldObject)) return false
  if (!objectMatches(match, r.object, r.oldObject)) return false
  if (match.excludeResourceRules?.some((rule) => ruleNames(rule, r.attributes, r.name)))
    return false
  if (!match.resourceRules?.length) return true
  return match.resourceRules.some((rule) => ruleNames(rule, r.attributes, r.name))
}

/** Whether a policy's rules could name a request, before its object, name or namespace are read. */
export function policyMayApply(p: ConfiguredPolicy, a: RuleAttributes): boolean {
  return !!p.policy.spec?.matchConstraints?.resourceRules?.some((rule) => ruleMatches(rule, a))
}

/**
 * Whether the namespace's labels let the policy and one of its bindings apply, known before the
 * object is: a write in a namespace no binding selects costs nothing more.
 */
export function policyMayApplyIn(
  p: ConfiguredPolicy,
  a: RuleAttributes,
  namespaceLabels: Record<string, string> | undefined,
): boolean {
  const inNamespace = (match: MatchResources | undefined) =>
    !match || namespaceMatches(match, a, namespaceLabels)
  if ((a.group === '' && a.resource === 'namespaces') || !a.namespaced) return true
  return (
    inNamespace(p.policy.spec?.matchConstraints) &&
    p.bindings.some((b) => inNamespace(b.spec?.matchResources))
  )
}
