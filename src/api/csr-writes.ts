/**
 * The API server's admission for CertificateSigningRequest writes, as kube-apiserver's
 * CertificateSubjectRestriction, CertificateApproval and CertificateSigning plugins and its
 * signature check on create, each judging the exact object a write stores (../admission/guarded-write):
 * - a create's request (by POST or by a server-side apply) must be signed by the key it carries,
 *   and a kube-apiserver-client request may not ask for the system:masters group;
 * - a write through `approval` needs `approve` on `signers` for the request's signerName;
 * - a write through `status` that changes status.certificate needs `sign` on that signer.
 */
import type { AdmissionBindings } from '../admission/bindings'
import type { KubeObject, Status } from '../apimachinery/types'
import { failure, invalid } from '../apimachinery/status'
import { toStatusCause, invalid as invalidCause } from '../apimachinery/field-errors'
import type { WriteGuard } from '../admission/guarded-write'
import { apiServerClientSigner, certificatesGroup, specOf, statusOf } from '../apis/certificates/csr-object'
import { requestOf } from '../apis/certificates/csr-validation'
import { checkCsrSignature } from '../apimachinery/x509/csr'
import { authorizeRequest } from './authorization/authorize'
import type { RequestInfo } from './http/request-info'
import { mastersGroup, requestUser, type UserInfo } from './authentication/user'

type Serve = (req: Request, guard: WriteGuard) => Promise<Response>

export function serveCsrWrite(req: Request, env: AdmissionBindings, info: RequestInfo, serve: Serve): Promise<Response> {
  return serve(req, csrGuard(env, requestUser(req), info.subresource))
}

/** The guard of `user`'s writes to CertificateSigningRequests through `subresource` (none: the object itself). */
export function csrGuard(env: AdmissionBindings, user: UserInfo, subresource: string | undefined): WriteGuard {
  const update = subresource === undefined ? undefined : subresourceRefusals.get(subresource)
  return async (csr, old) => {
    if (!old) return createRefusal(csr)
    return update?.(env, user, csr, old)
  }
}

type UpdateRefusal = (env: AdmissionBindings, user: UserInfo, csr: KubeObject, old: KubeObject) => Promise<Status | undefined>

/** What a write through each subresource needs beyond RBAC on it. */
const subresourceRefusals = new Map<string, UpdateRefusal>([
  ['approval', (env, user, csr) => signerVerbRefusal(env, user, 'approve', csr)],
  // A status write that changes the certificate is a signer's.
  [
    'status',
    async (env, user, csr, old) => {
      if (user.groups.includes(mastersGroup) || (statusOf(csr).certificate ?? '') === (statusOf(old).certificate ?? '')) return undefined
      return signerVerbRefusal(env, user, 'sign', old)
    },
  ],
])

/** Upstream's IsAuthorizedForSignerName: the verb on `signers` named exactly, or as `<domain>/*`. */
async function signerVerbRefusal(env: AdmissionBindings, user: UserInfo, verb: 'approve' | 'sign', csr: KubeObject): Promise<Status | undefined> {
  const signerName = specOf(csr).signerName ?? ''
  const attrs = (name: string) => ({ verb, group: certificatesGroup, resource: 'signers', name })
  if ((await authorizeRequest(env, user, attrs(signerName))).allowed) return undefined
  const slash = signerName.indexOf('/')
  if (slash > 0 && (await authorizeRequest(env, user, attrs(`${signerName.slice(0, slash)}/*`))).allowed) return undefined
  return forbidden(csr.metadata.name ?? '', `user not permitted to ${verb} requests with signerName "${signerName}"`)
}

const forbidden = (name: string, why: string) =>
  failure(403, 'Forbidden', `certificatesigningrequests.${certificatesGroup} "${name}" is forbidden: ${why}`, { name, group: certificatesGroup, kind: 'certificatesigningrequests' })

async function createRefusal(obj: KubeObject): Promise<Status | undefined> {
  const name = obj.metadata.name ?? ''
  const { csr } = requestOf(obj)
  if (!csr) return undefined // the store's validation names what is wrong with spec.request
  const bad = await checkCsrSignature(csr)
  if (bad) return invalid(certificatesGroup, 'CertificateSigningRequest', name, [toStatusCause(invalidCause('spec.request', '', bad, '[]byte{...}'))])
  if (specOf(obj).signerName === apiServerClientSigner && csr.organizations.includes(mastersGroup)) {
    return forbidden(name, `use of ${apiServerClientSigner} signer with ${mastersGroup} group is not allowed`)
  }
  return undefined
}
