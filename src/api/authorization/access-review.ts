import { ApiError, badRequest, invalid } from '../../apimachinery/status'
import {
  invalid as invalidCause,
  toStatusCause,
  type FieldCause,
} from '../../apimachinery/field-errors'
import type { StoreBindings } from '../../store-client/bindings'
import type { Attributes, ResourceAttributes } from './attributes'
import { authorize, authorizeRequest, rulesFor, type Decision } from './authorize'
import { bootstrapPolicy } from './rbac'
import { rbacPolicy } from './rbac-snapshot'
import { jsonBody } from '../http/respond'
import { readCreateBody } from './review-body'
import { nodeOf, requestUser } from '../authentication/user'
import { type UserInfo } from '../../apimachinery/user-info'

const group = 'authorization.k8s.io'
const apiVersion = `${group}/v1`

type Fields = Record<string, unknown>
/** The chain over the cluster's policy with `env`, over the default policy alone without. */
const decide = (
  env: StoreBindings | undefined,
  user: UserInfo,
  attrs: Attributes,
): Promise<Decision> =>
  env ? authorizeRequest(env, user, attrs) : Promise.resolve(authorize(user, attrs))
const policyOf = async (env: StoreBindings | undefined) =>
  env ? rbacPolicy(env) : bootstrapPolicy()

const text = (v: unknown): string => (typeof v === 'string' ? v : '')
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []

type Spec = { resourceAttributes?: Fields; nonResourceAttributes?: Fields }

/** The attributes a review's spec asks about, validated as ValidateSubjectAccessReviewSpec. */
function reviewAttributes(kind: string, spec: Spec): Attributes {
  const ra = spec.resourceAttributes
  const nra = spec.nonResourceAttributes
  if (ra && nra) {
    const display = `authorization.NonResourceAttributes{Path:${JSON.stringify(text(nra.path))}, Verb:${JSON.stringify(text(nra.verb))}}`
    throw reviewInvalid(
      kind,
      invalidCause(
        'spec.nonResourceAttributes',
        nra,
        'cannot be specified in combination with resourceAttributes',
        display,
      ),
    )
  }
  // field.Invalid prints a nil pointer as the quoted string "null".
  if (!ra && !nra)
    throw reviewInvalid(
      kind,
      invalidCause(
        'spec.resourceAttributes',
        null,
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
        '"null"',
      ),
    )
  if (!ra) return { verb: text(nra!.verb), path: text(nra!.path) }
  const attrs: ResourceAttributes = {
    verb: text(ra.verb),
    group: text(ra.group),
    resource: text(ra.resource),
  }
  if (text(ra.version)) attrs.version = text(ra.version)
  if (text(ra.subresource)) attrs.subresource = text(ra.subresource)
  if (text(ra.namespace)) attrs.namespace = text(ra.namespace)
  if (text(ra.name)) attrs.name = text(ra.name)
  const fieldSelector = (ra.fieldSelector ?? {}) as Fields
  if (text(fieldSelector.rawSelector)) attrs.fieldSelector = text(fieldSelector.rawSelector)
  return attrs
}

async function answer(
  env: StoreBindings | undefined,
  kind: string,
  body: Fields & { metadata?: unknown },
  spec: unknown,
  user: UserInfo,
  attrs: Attributes,
): Promise<Response> {
  const decision = await decide(env, user, attrs)
  const status: Fields = { allowed: decision.allowed }
  if (decision.reason) status.reason = decision.reason
  return jsonBody(
    {
      kind,
      apiVersion,
      metadata: { creationTimestamp: null, ...(body.metadata as Fields) },
      spec,
      status,
    },
    201,
  )
}

/**
 * POST selfsubjectaccessreviews (`kubectl auth can-i`): whether the caller may do what the spec
 * describes, answered by the same authorizers that guard its own requests.
 */
export async function serveSelfSubjectAccessReview(
  req: Request,
  env?: StoreBindings,
): Promise<Response> {
  const body = await readCreateBody(req, apiVersion, 'SelfSubjectAccessReview')
  const spec = (body.spec ?? {}) as Spec
  const attrs = reviewAttributes('SelfSubjectAccessReview', spec)
  return answer(env, 'SelfSubjectAccessReview', body, spec, requestUser(req), attrs)
}

/** The user a SubjectAccessReview asks about: spec.user, groups, uid and extra, as given. */
function specUser(kind: string, spec: Fields): UserInfo {
  const user: UserInfo = { username: text(spec.user), groups: strings(spec.groups) }
  if (!user.username && !user.groups.length)
    throw reviewInvalid(
      kind,
      invalidCause('spec.user', '', 'at least one of user or group must be specified'),
    )
  if (text(spec.uid)) user.uid = text(spec.uid)
  if (spec.extra && typeof spec.extra === 'object')
    user.extra = Object.fromEntries(
      Object.entries(spec.extra as Fields).map(([k, v]) => [k, strings(v)]),
    )
  return user
}

/** POST subjectaccessreviews: whether the user the spec names may do what it describes. */
export async function serveSubjectAccessReview(
  req: Request,
  env?: StoreBindings,
): Promise<Response> {
  const kind = 'SubjectAccessReview'
  const body = await readCreateBody(req, apiVersion, kind)
  const spec = (body.spec ?? {}) as Spec & Fields
  const user = specUser(kind, spec)
  return answer(env, kind, body, spec, user, reviewAttributes(kind, spec))
}

/** POST namespaces/{namespace}/localsubjectaccessreviews: a SubjectAccessReview confined to one namespace. */
export async function serveLocalSubjectAccessReview(
  req: Request,
  namespace: string,
  env?: StoreBindings,
): Promise<Response> {
  const kind = 'LocalSubjectAccessReview'
  const body = await readCreateBody(req, apiVersion, kind)
  const spec = (body.spec ?? {}) as Spec & Fields
  if (spec.nonResourceAttributes)
    throw reviewInvalid(
      kind,
      invalidCause(
        'spec.nonResourceAttributes',
        spec.nonResourceAttributes,
        'disallowed on this kind of request',
        `&authorization.NonResourceAttributes{Path:${JSON.stringify(text((spec.nonResourceAttributes as Fields).path))}, Verb:${JSON.stringify(text((spec.nonResourceAttributes as Fields).verb))}}`,
      ),
    )
  const user = specUser(kind, spec)
  const attrs = reviewAttributes(kind, spec)
  if (text(spec.resourceAttributes?.namespace) !== namespace)
    throw new ApiError(
      badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`),
    )
  const metaNs = text((body.metadata as Fields).namespace)
  if (metaNs && metaNs !== namespace)
    throw new ApiError(
      badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      ),
    )
  return answer(
    env,
    kind,
    { ...body, metadata: { ...(body.metadata as Fields), namespace } },
    spec,
    user,
    attrs,
  )
}

/** POST selfsubjectrulesreviews (`kubectl auth can-i --list`): every rule the caller holds in spec.namespace. */
export async function serveSelfSubjectRulesReview(
  req: Request,
  env?: StoreBindings,
): Promise<Response> {
  const body = await readCreateBody(req, apiVersion, 'SelfSubjectRulesReview')
  const namespace = text((body.spec as Fields | undefined)?.namespace)
  const user = requestUser(req)
  const { resourceRules, nonResourceRules } = rulesFor(user, namespace, await policyOf(env))
  const status: Fields = { resourceRules, nonResourceRules, incomplete: false }
  if (nodeOf(user) !== undefined) {
    // As kube-apiserver: the Node authorizer cannot enumerate a node's rules.
    status.incomplete = true
    status.evaluationError = 'node authorizer does not support user rule resolution'
  }
  return jsonBody(
    {
      kind: 'SelfSubjectRulesReview',
      apiVersion,
      metadata: { creationTimestamp: null, ...body.metadata },
      spec: body.spec ?? {},
      status,
    },
    201,
  )
}

function reviewInvalid(kind: string, cause: FieldCause): ApiError {
  return new ApiError(invalid(group, kind, '', [toStatusCause(cause)]))
}
