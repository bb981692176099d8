/**
 * One admission webhook call: the admission.k8s.io/v1 AdmissionReview sent, and what its answer
 * means (k8s.io/apiserver's admission/plugin/webhook/{request,mutating,validating}).
 */
import type { AdmissionBindings } from '../bindings'
import type { KubeObject, Status } from '../../apimachinery/types'
import { failure } from '../../apimachinery/status'
import type { Webhook } from '../../apis/admissionregistration/webhook-configuration'
import type { UserInfo } from '../../apimachinery/user-info'
import type { RuleAttributes } from './match'
import { callWebhook } from './transport'
import { matchConditionsAllow } from './match-conditions'

export interface ReviewRequest {
  attributes: RuleAttributes
  /** the kind of the object reviewed (autoscaling/v1 Scale for the scale subresource) */
  kind: { group: string; version: string; kind: string }
  name: string
  object?: KubeObject
  oldObject?: KubeObject
  dryRun: boolean
  options?: Record<string, unknown>
  user: UserInfo
}

export type ReviewOutcome =
  | { allowed: true; patch?: unknown[]; warnings: string[] }
  | { allowed: false; status: Status; warnings: string[] }
  /** the call itself failed: failurePolicy decides */
  | { error: string }
  /** not called: a match condition was false (or erred under failurePolicy Ignore) */
  | { skipped: true }
  /** not called: a match condition erred under failurePolicy Fail, which refuses the request */
  | { refused: Status }

/** Sends one review to one webhook, once its match conditions let it be called, and reads its answer. */
export async function review(
  env: AdmissionBindings,
  hook: Webhook,
  mutating: boolean,
  r: ReviewRequest,
): Promise<ReviewOutcome> {
  const gate = await matchConditionsAllow(env, hook, r)
  if (gate === 'skip') return { skipped: true }
  if (gate !== 'call') return { refused: gate }
  const uid = crypto.randomUUID()
  const body = {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: r.kind,
      resource: {
        group: r.attributes.group,
        version: r.attributes.version,
        resource: r.attributes.resource,
      },
      ...(r.attributes.subresource ? { subResource: r.attributes.subresource } : {}),
      requestKind: r.kind,
      requestResource: {
        group: r.attributes.group,
        version: r.attributes.version,
        resource: r.attributes.resource,
      },
      ...(r.attributes.subresource ? { requestSubResource: r.attributes.subresource } : {}),
      name: r.name,
      ...(r.attributes.namespace ? { namespace: r.attributes.namespace } : {}),
      operation: r.attributes.operation,
      userInfo: r.user,
      object: r.object ?? null,
      oldObject: r.oldObject ?? null,
      dryRun: r.dryRun,
      options: r.options ?? null,
    },
  }
  const answer = await callWebhook(env, hook, JSON.stringify(body))
  if (!answer.ok) return { error: answer.error }
  return readResponse(answer.body, uid, mutating)
}

function readResponse(text: string, uid: string, mutating: boolean): ReviewOutcome {
  let parsed: { apiVersion?: unknown; kind?: unknown; response?: Record<string, unknown> }
  try {
    parsed = JSON.parse(text) as typeof parsed
  } catch (e) {
    return {
      error: `received invalid webhook response: ${e instanceof Error ? e.message : String(e)}`,
    }
  }
  if (parsed.apiVersion !== 'admission.k8s.io/v1' || parsed.kind !== 'AdmissionReview') {
    return {
      error: `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${String(parsed.apiVersion)}, Kind=${String(parsed.kind)}`,
    }
  }
  const res = parsed.response
  if (!res || typeof res !== 'object') return { error: 'webhook response was absent' }
  if (res.uid !== uid) return { error: `expected response.uid="${uid}", got "${String(res.uid)}"` }
  const warnings = Array.isArray(res.warnings)
    ? res.warnings.filter((w): w is string => typeof w === 'string')
    : []
  if (res.allowed !== true)
    return {
      allowed: false,
      status: deniedStatus(res.status as Partial<Status> | undefined),
      warnings,
    }
  if (res.patch === undefined || res.patch === null) return { allowed: true, warnings }
  if (!mutating) return { error: 'validating webhook may not return a patch' }
  if (res.patchType !== 'JSONPatch')
    return { error: `unsupported patch type "${String(res.patchType)}"` }
  try {
    const ops = JSON.parse(atob(String(res.patch))) as unknown
    if (!Array.isArray(ops))
      return { error: 'the webhook returned a patch that is not a JSON patch' }
    return { allowed: true, patch: ops, warnings }
  } catch (e) {
    return {
      error: `the webhook returned an invalid patch: ${e instanceof Error ? e.message : String(e)}`,
    }
  }
}

/** webhookerrors.ToStatusErr without the name: the code is at least 400 and the status Failure. */
function deniedStatus(s: Partial<Status> | undefined): Status {
  const code = typeof s?.code === 'number' && s.code >= 400 ? s.code : 400
  const out: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code }
  if (typeof s?.message === 'string' && s.message) out.message = s.message
  if (typeof s?.reason === 'string' && s.reason) out.reason = s.reason
  if (s?.details) out.details = s.details
  return out
}

/** The Status a denial answers the client with. */
export function denial(webhookName: string, status: Status): Status {
  const deniedBy = `admission webhook "${webhookName}" denied the request`
  const message = status.message
    ? `${deniedBy}: ${status.message}`
    : status.reason
      ? `${deniedBy}: ${status.reason}`
      : `${deniedBy} without explanation`
  return { ...status, message }
}

/** The Status a failed call answers with under failurePolicy Fail. */
export function callFailure(webhookName: string, error: string): Status {
  return failure(
    500,
    'InternalError',
    `Internal error occurred: failed calling webhook "${webhookName}": ${error}`,
  )
}
