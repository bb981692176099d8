import type { KubeObject } from '../../apimachinery/types'
import { formatTime } from '../../apimachinery/meta-time'
import {
  apiServerClientSigner,
  hasCondition,
  specOf,
  statusOf,
} from '../../apis/certificates/csr-object'
import { requestOf } from '../../apis/certificates/csr-validation'
import type { Cache, Outcome, ResourceRef } from '../runtime/types'

export const certificateSigningRequests: ResourceRef = {
  group: 'certificates.k8s.io',
  version: 'v1',
  plural: 'certificatesigningrequests',
}

/** Issued certificates start this far in the past, for clocks running behind (upstream's backdate). */
export const backdateMs = 5 * 60 * 1000

export interface SigningSettings {
  /** the longest validity issued, whatever expirationSeconds asks */
  maxDurationSeconds: number
}

const optionalUsages = new Set(['digital signature', 'key encipherment'])

/** Upstream's validAPIServerClientUsages, and the kube-apiserver-client signer's refusal of system:masters. */
export function signerRefusal(csr: KubeObject): string | undefined {
  const usages = specOf(csr).usages ?? []
  for (const u of usages)
    if (u !== 'client auth' && !optionalUsages.has(u))
      return `invalid usage for client certificate: ${u}`
  if (!usages.includes('client auth'))
    return 'missing required usage for client certificate: client auth'
  const { csr: request, error } = requestOf(csr)
  if (!request) return `unable to parse csr: ${error}`
  if (request.organizations.includes('system:masters'))
    return `use of ${apiServerClientSigner} signer with system:masters group is not allowed`
  return undefined
}

/** The Failed condition a signer adds when it will not sign. */
export function failedStatus(csr: KubeObject, message: string, now: number): KubeObject {
  const status = statusOf(csr)
  const at = formatTime(now)
  const conditions = [
    ...(status.conditions ?? []),
    {
      type: 'Failed',
      status: 'True',
      reason: 'SignerValidationFailure',
      message,
      lastUpdateTime: at,
      lastTransitionTime: at,
    },
  ]
  return { ...csr, status: { ...status, conditions } }
}

/**
 * One request for the kubernetes.io/kube-apiserver-client signer: once Approved (and not Denied
 * or Failed) and not yet issued, either a certificate is issued, valid from `now` less the backdate
 * for expirationSeconds (or the cap, whichever is shorter), or the request is marked Failed.
 */
export function reconcileCsr(
  name: string,
  cache: Cache,
  now: number,
  settings: SigningSettings,
): Outcome {
  const csr = cache.get(certificateSigningRequests, undefined, name)
  if (!csr || specOf(csr).signerName !== apiServerClientSigner) return { actions: [] }
  if (
    statusOf(csr).certificate ||
    !hasCondition(csr, 'Approved') ||
    hasCondition(csr, 'Denied') ||
    hasCondition(csr, 'Failed')
  )
    return { actions: [] }
  const refusal = signerRefusal(csr)
  if (refusal)
    return {
      actions: [
        {
          type: 'updateStatus',
          resource: certificateSigningRequests,
          object: failedStatus(csr, refusal, now),
        },
      ],
    }
  const requested = specOf(csr).expirationSeconds
  const seconds =
    requested === undefined
      ? settings.maxDurationSeconds
      : Math.min(requested, settings.maxDurationSeconds)
  return {
    actions: [
      {
        type: 'issueCertificate',
        resource: certificateSigningRequests,
        csr,
        notBefore: now - backdateMs,
        notAfter: now + seconds * 1000,
      },
    ],
  }
}
