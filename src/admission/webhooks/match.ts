/**
 * Which webhooks a request goes to (k8s.io/apiserver's admission/plugin/webhook/predicates): the
 * rules by operation, group, version, resource[/subresource] and scope, then the namespace and
 * object selectors.
 */
import type { KubeObject } from '../../apimachinery/types'
import { matchesLabels, selectorFromLabelSelector } from '../../apimachinery/labels'
import type { Webhook, WebhookRule } from '../../apis/admissionregistration/webhook-configuration'

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT'

/**
 * What a request is about, as the webhooks' and the policies' rules match it: the part of its
 * admission attributes (../attributes.ts) that can be known before anything is read.
 */
export interface RuleAttributes {
  operation: Operation
  group: string
  version: string
  resource: string
  subresource: string
  namespaced: boolean
  /** the request's namespace ('' for cluster-scoped kinds) */
  namespace: string
}

const listed = (values: readonly string[] | undefined, value: string) =>
  !!values?.some((v) => v === '*' || v === value)

/** upstream's Matcher: every part of one rule names the request. */
export function ruleMatches(rule: WebhookRule, a: RuleAttributes): boolean {
  if (
    !listed(rule.operations, a.operation) ||
    !listed(rule.apiGroups, a.group) ||
    !listed(rule.apiVersions, a.version)
  )
    return false
  const scope = rule.scope ?? '*'
  if (scope === 'Cluster' && a.namespaced) return false
  if (scope === 'Namespaced' && !a.namespaced) return false
  return !!rule.resources?.some((r) => resourceMatches(r, a.resource, a.subresource))
}

/** `pods` (the resource only), `pods/status`, `pods/*`, `*` (every resource), `*\/status`, `*\/*`. */
function resourceMatches(pattern: string, resource: string, subresource: string): boolean {
  const [res, sub] = pattern.split('/') as [string, string | undefined]
  if (res !== '*' && res !== resource) return false
  if (sub === undefined) return subresource === ''
  return sub === '*' || sub === subresource
}

export function rulesMatch(hook: Webhook, a: RuleAttributes): boolean {
  return !!hook.rules?.some((rule) => ruleMatches(rule, a))
}

/**
 * The namespace selector: the namespace's labels for a namespaced object, the object's own labels
 * when it is a Namespace; cluster-scoped objects always pass.
 */
export function namespaceMatches(
  hook: Pick<Webhook, 'namespaceSelector'>,
  a: RuleAttributes,
  namespaceLabels: Record<string, string> | undefined,
  object?: KubeObject,
  oldObject?: KubeObject,
): boolean {
  const isNamespace = a.group === '' && a.resource === 'namespaces'
  if (!isNamespace && !a.namespaced) return true
  const labels = isNamespace ? (object ?? oldObject)?.metadata.labels : namespaceLabels
  return matchesLabels(selectorFromLabelSelector(hook.namespaceSelector ?? {}), labels ?? {})
}

/** The object selector: the object's or the old object's labels. */
export function objectMatches(
  hook: Pick<Webhook, 'objectSelector'>,
  object?: KubeObject,
  oldObject?: KubeObject,
): boolean {
  if (!object && !oldObject) return true
  const selector = selectorFromLabelSelector(hook.objectSelector ?? {})
  return [object, oldObject].some((o) => o && matchesLabels(selector, o.metadata.labels ?? {}))
}

export function selectorsMatch(
  hook: Webhook,
  a: RuleAttributes,
  namespaceLabels: Record<string, string> | undefined,
  object?: KubeObject,
  oldObject?: KubeObject,
): boolean {
  return (
    namespaceMatches(hook, a, namespaceLabels, object, oldObject) &&
    objectMatches(hook, object, oldObject)
  )
}
