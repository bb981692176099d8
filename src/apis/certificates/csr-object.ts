/**
 * certificates.k8s.io/v1 CertificateSigningRequest: the object's shape, and what the API server
 * keeps of each write (upstream's csrStrategy, csrStatusStrategy and csrApprovalStrategy).
 */
import type { KubeObject } from '../../apimachinery/types'
import { formatTime } from '../../apimachinery/meta-time'
import type { WriteSubresource } from '../write-subresource'

export const certificatesGroup = 'certificates.k8s.io'
export const apiServerClientSigner = 'kubernetes.io/kube-apiserver-client'

export interface CsrCondition {
  type: string
  status: string
  reason?: string
  message?: string
  lastUpdateTime?: string
  lastTransitionTime?: string
}

export interface CsrSpec {
  request?: string
  signerName?: string
  expirationSeconds?: number
  usages?: string[]
  username?: string
  uid?: string
  groups?: string[]
  extra?: Record<string, string[]>
}

export interface CsrStatus {
  conditions?: CsrCondition[]
  certificate?: string
}

/** The requesting user's identity, as the API server records it in spec on create. */
export interface Requester {
  username: string
  uid?: string
  groups: string[]
  extra?: Record<string, string[]>
}

export const specOf = (o: KubeObject): CsrSpec => (o.spec ?? {}) as CsrSpec
export const statusOf = (o: KubeObject): CsrStatus => (o.status ?? {}) as CsrStatus
export const hasCondition = (o: KubeObject, type: string): boolean =>
  (statusOf(o).conditions ?? []).some((c) => c.type === type)

/** spec.username, uid, groups and extra are the creator's, whatever the client sent. */
export function stampRequester(obj: KubeObject, requester: Requester | undefined): void {
  const spec = { ...specOf(obj) }
  delete spec.username
  delete spec.uid
  delete spec.groups
  delete spec.extra
  if (requester) {
    spec.username = requester.username
    if (requester.uid) spec.uid = requester.uid
    if (requester.groups.length) spec.groups = [...requester.groups]
    if (requester.extra && Object.keys(requester.extra).length) spec.extra = requester.extra
  }
  obj.spec = spec
}

const approvalTypes = new Set(['Approved', 'Denied'])

/**
 * An update's object as stored: spec never changes; through `status` the approval conditions stay
 * as they were (nobody approves their own request with status rights); through `approval` only the
 * conditions change. Conditions get upstream's timestamps.
 */
export function prepareCsrUpdate(
  old: KubeObject,
  next: KubeObject,
  subresource: Extract<WriteSubresource, 'status' | 'approval'> | undefined,
): KubeObject {
  const out: KubeObject = { ...next, spec: old.spec }
  if (!subresource) return out
  const incoming = statusOf(next)
  const before = statusOf(old)
  let status: CsrStatus
  if (subresource === 'approval') status = { ...before, conditions: incoming.conditions }
  else {
    const kept = (before.conditions ?? []).filter((c) => approvalTypes.has(c.type))
    status = {
      ...incoming,
      conditions: [
        ...(incoming.conditions ?? []).filter((c) => !approvalTypes.has(c.type)),
        ...kept,
      ],
    }
  }
  if (!status.conditions?.length) delete status.conditions
  out.status = withConditionTimestamps(status, before, Date.now())
  return out
}

function withConditionTimestamps(status: CsrStatus, before: CsrStatus, nowMs: number): CsrStatus {
  if (!status.conditions) return status
  const now = formatTime(nowMs)
  const conditions = status.conditions.map((c) => {
    const out = { ...c }
    if (!out.lastUpdateTime) out.lastUpdateTime = now
    if (!out.lastTransitionTime) {
      const same = (before.conditions ?? []).find(
        (o) => o.type === c.type && o.status === c.status && o.lastTransitionTime,
      )
      out.lastTransitionTime = same?.lastTransitionTime ?? now
    }
    return out
  })
  return { ...status, conditions }
}
