/**
 * ValidatingAdmissionPolicy admission (k8s.io/apiserver's validating dispatcher): for every policy
 * the request meets, every binding it meets, every param the binding names, the policy's
 * validations. A failure is acted on as the binding's validationActions say: Deny refuses the
 * request (the first denial answers, with its reason's HTTP code), Warn adds a `Warning` header,
 * Audit is accepted and has no effect (this server keeps no audit log). A binding whose params
 * cannot be read, or a policy that cannot be compiled, meets the policy's failurePolicy.
 */
import type { Env } from '../../env'
import type { KubeObject, Status, StatusReason } from '../../apimachinery/types'
import { failure, qualifiedResource } from '../../apimachinery/status'
import type { UserInfo } from '../../apimachinery/user-info'
import type { AdmissionPolicyBinding } from '../../apis/admissionregistration/admission-policy'
import { validationReasons } from '../../apis/admissionregistration/admission-policy'
import { toCel } from '../../apis/admissionregistration/cel'
import type { AdmissionAttributes } from '../webhooks/match'
import type { ConfiguredPolicy } from './configurations'
import { evaluatePolicy, type Decision } from './evaluate'
import { resourcesMatch, type MatchRequest } from './match'
import { collectParams } from './params'

export interface PolicyRequest {
  attributes: AdmissionAttributes
  kind: { group: string; version: string; kind: string }
  name: string
  object?: KubeObject
  oldObject?: KubeObject
  /** the request's namespace, when the resource is namespaced and the namespace exists */
  namespace?: KubeObject
  user: UserInfo
  dryRun: boolean
  options?: Record<string, unknown>
}

interface Denial extends Decision {
  policy: string
  binding: string
}

/** The refusal, if any binding denies; Warn failures are added to `warnings`. */
export async function enforcePolicies(env: Env, policies: ConfiguredPolicy[], r: PolicyRequest, warnings: string[]): Promise<Status | undefined> {
  const match: MatchRequest = {
    attributes: r.attributes,
    name: r.name,
    object: r.object,
    oldObject: r.oldObject,
    namespaceLabels: r.namespace ? (r.namespace.metadata.labels ?? {}) : undefined,
  }
  const denials: Denial[] = []
  let input: Record<string, unknown> | undefined
  for (const p of policies) {
    const constraints = p.policy.spec?.matchConstraints
    if (!constraints || !resourcesMatch(constraints, match)) continue
    for (const binding of p.bindings) {
      if (binding.spec?.matchResources && !resourcesMatch(binding.spec.matchResources, match)) continue
      const bindingName = binding.metadata.name ?? ''
      const collected = await collectParams(env, p.policy, binding, r.attributes.namespace)
      if (!collected.ok) {
        if (p.failurePolicy === 'Fail') denials.push({ policy: p.name, binding: bindingName, deny: true, message: `failed to configure binding: ${collected.error}` })
        continue
      }
      input ??= celInput(r)
      for (const param of collected.params) {
        for (const decision of evaluatePolicy(p, { ...input, params: param ? toCel(param) : null })) act(decision, p.name, binding, denials, warnings)
      }
    }
  }
  const first = denials[0]
  if (!first) return undefined
  const message = `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.message}`
  const reason = (first.reason ?? 'Invalid') as StatusReason
  const { group, resource } = r.attributes
  return failure(validationReasons[reason] ?? 422, reason, `${qualifiedResource(group, resource)} "${r.name}" is forbidden: ${message}`, { name: r.name, group, kind: resource, causes: [{ message }] })
}

function act(decision: Decision, policy: string, binding: AdmissionPolicyBinding, denials: Denial[], warnings: string[]): void {
  const bindingName = binding.metadata.name ?? ''
  for (const action of binding.spec?.validationActions ?? []) {
    if (action === 'Deny') denials.push({ ...decision, policy, binding: bindingName })
    else if (action === 'Warn') warnings.push(`Validation failed for ValidatingAdmissionPolicy '${policy}' with binding '${bindingName}': ${decision.message}`)
  }
}

/** The CEL variables every policy sees for this request (params aside). */
function celInput(r: PolicyRequest): Record<string, unknown> {
  const { attributes: a, kind } = r
  const resource = { group: a.group, version: a.version, resource: a.resource }
  const request = {
    kind,
    resource,
    subResource: a.subresource,
    requestKind: kind,
    requestResource: resource,
    requestSubResource: a.subresource,
    name: r.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: { username: r.user.username, uid: r.user.uid ?? '', groups: r.user.groups, extra: r.user.extra ?? {} },
    dryRun: r.dryRun,
    options: r.options,
  }
  const isNamespace = a.group === '' && a.resource === 'namespaces'
  return {
    object: r.object ? toCel(r.object) : null,
    oldObject: r.oldObject ? toCel(r.oldObject) : null,
    request: toCel(request),
    namespaceObject: r.namespace && !isNamespace ? toCel(namespaceObjectOf(r.namespace)) : null,
  }
}

/** What CEL sees of the namespace (cel.CreateNamespaceObject): its metadata, spec and status. */
function namespaceObjectOf(ns: KubeObject): Record<string, unknown> {
  const m = ns.metadata
  const metadata: Record<string, unknown> = {}
  for (const key of ['name', 'generateName', 'namespace', 'labels', 'annotations', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'finalizers', 'resourceVersion', 'generation'] as const) {
    if (m[key as keyof typeof m] !== undefined) metadata[key] = m[key as keyof typeof m]
  }
  return { metadata, spec: ns.spec ?? {}, status: ns.status ?? {} }
}
