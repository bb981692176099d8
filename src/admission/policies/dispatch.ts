/**
 * ValidatingAdmissionPolicy admission (k8s.io/apiserver's validating dispatcher): for every policy
 * the request meets, every binding it meets, every param the binding names, the policy's
 * validations. A failure is acted on as the binding's validationActions say: Deny refuses the
 * request (the first denial answers, with its reason's HTTP code), Warn adds a `Warning` header,
 * Audit is accepted and has no effect (this server keeps no audit log). A binding whose params
 * cannot be read, or a policy that cannot be compiled, meets the policy's failurePolicy.
 */
import type { AdmissionBindings } from '../bindings'
import type { Status, StatusReason } from '../../apimachinery/types'
import { failure, qualifiedResource } from '../../apimachinery/status'
import type { AdmissionPolicyBinding } from '../../apis/admissionregistration/admission-policy'
import { validationReasons } from '../../apis/admissionregistration/admission-policy'
import { toCel } from '../../apis/admissionregistration/cel'
import type { ConfiguredPolicy } from './configurations'
import { evaluatePolicy, type Decision } from './evaluate'
import { resourcesMatch, type MatchRequest } from './match'
import { collectParams } from './params'
import { celInput, type CelRequest } from './cel-input'
import { admissionAuthorizer } from './authorizer'
import type { Authorize } from '../../apis/admissionregistration/cel-authz'

export type PolicyRequest = CelRequest

interface Denial extends Decision {
  policy: string
  binding: string
}

/** The refusal, if any binding denies; Warn failures are added to `warnings`. */
export async function enforcePolicies(
  env: AdmissionBindings,
  policies: ConfiguredPolicy[],
  r: PolicyRequest,
  warnings: string[],
): Promise<Status | undefined> {
  const match: MatchRequest = {
    attributes: r.attributes,
    name: r.name,
    object: r.object,
    oldObject: r.oldObject,
    namespaceLabels: r.namespace ? (r.namespace.metadata.labels ?? {}) : undefined,
  }
  const denials: Denial[] = []
  let input: Record<string, unknown> | undefined
  let authorize: Authorize | undefined
  for (const p of policies) {
    const constraints = p.policy.spec?.matchConstraints
    if (!constraints || !resourcesMatch(constraints, match)) continue
    for (const binding of p.bindings) {
      if (binding.spec?.matchResources && !resourcesMatch(binding.spec.matchResources, match))
        continue
      const bindingName = binding.metadata.name ?? ''
      const collected = await collectParams(env, p.policy, binding, r.attributes.namespace)
      if (!collected.ok) {
        if (p.failurePolicy === 'Fail')
          denials.push({
            policy: p.name,
            binding: bindingName,
            deny: true,
            message: `failed to configure binding: ${collected.error}`,
          })
        continue
      }
      if (p.usesAuthorizer && !authorize) {
        authorize = await admissionAuthorizer(env)
        input = undefined
      }
      input ??= celInput(r, authorize)
      for (const param of collected.params) {
        for (const decision of evaluatePolicy(p, { ...input, params: param ? toCel(param) : null }))
          act(decision, p.name, binding, denials, warnings)
      }
    }
  }
  const first = denials[0]
  if (!first) return undefined
  const message = `ValidatingAdmissionPolicy '${first.policy}' with binding '${first.binding}' denied request: ${first.message}`
  const reason = (first.reason ?? 'Invalid') as StatusReason
  const { group, resource } = r.attributes
  return failure(
    validationReasons[reason] ?? 422,
    reason,
    `${qualifiedResource(group, resource)} "${r.name}" is forbidden: ${message}`,
    { name: r.name, group, kind: resource, causes: [{ message }] },
  )
}

function act(
  decision: Decision,
  policy: string,
  binding: AdmissionPolicyBinding,
  denials: Denial[],
  warnings: string[],
): void {
  const bindingName = binding.metadata.name ?? ''
  for (const action of binding.spec?.validationActions ?? []) {
    if (action === 'Deny') denials.push({ ...decision, policy, binding: bindingName })
    else if (action === 'Warn')
      warnings.push(
        `Validation failed for ValidatingAdmissionPolicy '${policy}' with binding '${bindingName}': ${decision.message}`,
      )
  }
}
