import type { Env } from '../env'
import { ApiError, invalid } from '../apimachinery/status'
import { invalid as invalidCause, toStatusCause } from '../apimachinery/validation'
import type { Attributes } from './authorizer-attributes'
import { authorize, authorizeRequest, rulesFor } from './authorize'
import { jsonBody } from './respond'
import { readCreateBody } from './review-body'
import { nodeOf, requestUser } from './user'

const group = 'authorization.k8s.io'
const apiVersion = `${group}/v1`

type Fields = Record<string, unknown>

const text = (v: unknown): string => (typeof v === 'string' ? v : '')

/**
 * POST selfsubjectaccessreviews (`kubectl auth can-i`): whether the caller may do what the spec
 * describes, answered by the same authorizers that guard its own requests.
 */
export async function serveSelfSubjectAccessReview(req: Request, env?: Env): Promise<Response> {
  const body = await readCreateBody(req, apiVersion, 'SelfSubjectAccessReview')
  const spec = (body.spec ?? {}) as { resourceAttributes?: Fields; nonResourceAttributes?: Fields }
  const ra = spec.resourceAttributes
  const nra = spec.nonResourceAttributes
  if (ra && nra) {
    const display = `authorization.NonResourceAttributes{Path:${JSON.stringify(text(nra.path))}, Verb:${JSON.stringify(text(nra.verb))}}`
    throw reviewInvalid(invalidCause('spec.nonResourceAttributes', nra, 'cannot be specified in combination with resourceAttributes', display))
  }
  // field.Invalid prints a nil pointer as the quoted string "null".
  if (!ra && !nra) throw reviewInvalid(invalidCause('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified', '"null"'))
  let attrs: Attributes
  if (ra) {
    attrs = { verb: text(ra.verb), group: text(ra.group), resource: text(ra.resource) }
    if (text(ra.version)) attrs.version = text(ra.version)
    if (text(ra.subresource)) attrs.subresource = text(ra.subresource)
    if (text(ra.namespace)) attrs.namespace = text(ra.namespace)
    if (text(ra.name)) attrs.name = text(ra.name)
    const fieldSelector = (ra.fieldSelector ?? {}) as Fields
    if (text(fieldSelector.rawSelector)) attrs.fieldSelector = text(fieldSelector.rawSelector)
  } else {
    attrs = { verb: text(nra!.verb), path: text(nra!.path) }
  }
  const decision = env ? await authorizeRequest(env, requestUser(req), attrs) : authorize(requestUser(req), attrs)
  const status: Fields = { allowed: decision.allowed }
  if (decision.reason) status.reason = decision.reason
  return jsonBody({ kind: 'SelfSubjectAccessReview', apiVersion, metadata: { creationTimestamp: null, ...body.metadata }, spec, status }, 201)
}

/** POST selfsubjectrulesreviews (`kubectl auth can-i --list`): every rule the caller holds. */
export async function serveSelfSubjectRulesReview(req: Request): Promise<Response> {
  const body = await readCreateBody(req, apiVersion, 'SelfSubjectRulesReview')
  const user = requestUser(req)
  const { resourceRules, nonResourceRules } = rulesFor(user)
  const status: Fields = { resourceRules, nonResourceRules, incomplete: false }
  if (nodeOf(user) !== undefined) {
    // As kube-apiserver: the Node authorizer cannot enumerate a node's rules.
    status.incomplete = true
    status.evaluationError = 'node authorizer does not support user rule resolution'
  }
  return jsonBody({ kind: 'SelfSubjectRulesReview', apiVersion, metadata: { creationTimestamp: null, ...body.metadata }, spec: body.spec ?? {}, status }, 201)
}

function reviewInvalid(cause: ReturnType<typeof invalidCause>): ApiError {
  return new ApiError(invalid(group, 'SelfSubjectAccessReview', '', [toStatusCause(cause)]))
}
