/**
 * The admission of CertificateSigningRequest writes, as kube-apiserver's
 * CertificateSubjectRestriction, CertificateApproval and CertificateSigning plugins and its
 * signature check on create, each judging the exact object a write stores (./guarded-write.ts):
 * - a create's request (by POST or by a server-side apply) must be signed by the key it carries,
 *   and a kube-apiserver-client request may not ask for the system:masters group;
 * - a write through `approval` needs `approve` on `signers` for the request's signerName;
 * - a write through `status` that changes status.certificate needs `sign` on that signer.
 * The cluster's authorizer answers the signer checks (./policies/authorizer.ts).
 */
import type { AdmissionBindings } from '../admission/bindings'
import type { KubeObject, Status } from '../apimachinery/types'
import { invalid } from '../apimachinery/status'
import { toStatusCause, invalid as invalidCause } from '../apimachinery/field-errors'
import { mastersGroup, type UserInfo } from '../apimachinery/user-info'
import {
  apiServerClientSigner,
  certificatesGroup,
  specOf,
  statusOf,
} from '../apis/certificates/csr-object'
import { requestOf } from '../apis/certificates/csr-validation'
import { checkCsrSignature } from '../apimachinery/x509/csr'
import type { WriteGuard } from './guarded-write'
import { admissionForbidden } from './forbidden'
import { admissionAuthorizer } from './policies/authorizer'

const csrs = { group: certificatesGroup, plural: 'certificatesigningrequests' }

/** The guard of `user`'s writes to CertificateSigningRequests through `subresource` (none: the object itself). */
export function csrGuard(
  env: AdmissionBindings,
  user: UserInfo,
  subresource: string | undefined,
): WriteGuard {
  const update = subresource ? subresourceRefusals.get(subresource) : undefined
  return async (csr, old) => {
    if (!old) return createRefusal(csr)
    return update?.(env, user, csr, old)
  }
}

type UpdateRefusal = (
  env: AdmissionBindings,
  user: UserInfo,
  csr: KubeObject,
  old: KubeObject,
) => Promise<Status | undefined>

/** What a write through each subresource needs beyond RBAC on it. */
const subresourceRefusals = new Map<string, UpdateRefusal>([
  ['approval', (env, user, csr) => signerVerbRefusal(env, user, 'approve', csr)],
  // A status write that changes the certificate is a signer's.
  [
    'status',
    async (env, user, csr, old) => {
      if (
        user.groups.includes(mastersGroup) ||
        (statusOf(csr).certificate ?? '') === (statusOf(old).certificate ?? '')
      )
        return undefined
      return signerVerbRefusal(env, user, 'sign', old)
    },
  ],
])

/** Upstream's IsAuthorizedForSignerName: the verb on `signers` named exactly, or as `<domain>/*`. */
async function signerVerbRefusal(
  env: AdmissionBindings,
  user: UserInfo,
  verb: 'approve' | 'sign',
  csr: KubeObject,
): Promise<Status | undefined> {
  if (user.groups.includes(mastersGroup)) return undefined
  const signerName = specOf(csr).signerName ?? ''
  const authorize = await admissionAuthorizer(env)
  const allowed = (name: string) =>
    authorize(user, { verb, group: certificatesGroup, version: '', resource: 'signers', name })
      .allowed
  if (allowed(signerName)) return undefined
  const slash = signerName.indexOf('/')
  if (slash > 0 && allowed(`${signerName.slice(0, slash)}/*`)) return undefined
  return admissionForbidden(
    csrs,
    csr.metadata.name ?? '',
    `user not permitted to ${verb} requests with signerName "${signerName}"`,
  )
}

async function createRefusal(obj: KubeObject): Promise<Status | undefined> {
  const name = obj.metadata.name ?? ''
  const { csr } = requestOf(obj)
  if (!csr) return undefined // the store's validation names what is wrong with spec.request
  const bad = await checkCsrSignature(csr)
  if (bad)
    return invalid(certificatesGroup, 'CertificateSigningRequest', name, [
      toStatusCause(invalidCause('spec.request', '', bad, '[]byte{...}')),
    ])
  if (
    specOf(obj).signerName === apiServerClientSigner &&
    csr.organizations.includes(mastersGroup)
  ) {
    return admissionForbidden(
      csrs,
      name,
      `use of ${apiServerClientSigner} signer with ${mastersGroup} group is not allowed`,
    )
  }
  return undefined
}
