/**
 * The API server's admission for CertificateSigningRequest writes, as kube-apiserver's
 * CertificateSubjectRestriction, CertificateApproval and CertificateSigning plugins and its
 * signature check on create:
 * - a create's request must be signed by the key it carries, and a kube-apiserver-client request
 *   may not ask for the system:masters group;
 * - a write through `approval` needs `approve` on `signers` for the request's signerName;
 * - a write through `status` that changes status.certificate needs `sign` on that signer.
 */
import type { Env } from '../env'
import type { KubeObject } from '../apimachinery/types'
import { ApiError, failure, invalid } from '../apimachinery/status'
import { toStatusCause, invalid as invalidCause } from '../apimachinery/validation'
import type { ResourceDef } from '../apis/registry'
import { apiServerClientSigner, certificatesGroup, specOf, statusOf } from '../apis/certificates/csr-object'
import { requestOf } from '../apis/certificates/csr-validation'
import { checkCsrSignature } from '../apimachinery/x509/csr'
import { storeFor } from '../store-client/stores'
import { authorizeRequest } from './authorize'
import type { RequestInfo } from './request-info'
import { unwrap } from '../apimachinery/status'
import { mastersGroup, requestUser, type UserInfo } from './user'
import { dryRunTrial, readBody } from './body'

type Serve = (req: Request) => Promise<Response>

export async function serveCsrWrite(req: Request, env: Env, def: ResourceDef, info: RequestInfo, serve: Serve): Promise<Response> {
  if (req.method === 'POST' && !info.name) {
    await admitCsrCreate((await readBody(req)) as KubeObject)
    return serve(req)
  }
  const sub = info.subresource
  if (!info.name || (sub !== 'approval' && sub !== 'status') || !['PUT', 'PATCH'].includes(req.method)) return serve(req)
  const user = requestUser(req)
  const stored = JSON.parse(unwrap(await storeFor(env, def).get({ def, name: info.name }))) as KubeObject
  const signerName = specOf(stored).signerName ?? ''
  if (sub === 'approval') {
    await requireSignerVerb(env, user, 'approve', stored, signerName)
    return serve(req)
  }
  if (user.groups.includes(mastersGroup)) return serve(req)
  // A status write that would change the certificate is a signer's: tried as a dry run first.
  const trial = await serve(dryRunTrial(req))
  if (trial.ok) {
    const would = (await trial.json()) as KubeObject
    if ((statusOf(would).certificate ?? '') !== (statusOf(stored).certificate ?? '')) await requireSignerVerb(env, user, 'sign', stored, signerName)
  }
  return serve(req)
}

/** Upstream's IsAuthorizedForSignerName: the verb on `signers` named exactly, or as `<domain>/*`. */
async function requireSignerVerb(env: Env, user: UserInfo, verb: 'approve' | 'sign', csr: KubeObject, signerName: string): Promise<void> {
  const attrs = (name: string) => ({ verb, group: certificatesGroup, resource: 'signers', name })
  if ((await authorizeRequest(env, user, attrs(signerName))).allowed) return
  const slash = signerName.indexOf('/')
  if (slash > 0 && (await authorizeRequest(env, user, attrs(`${signerName.slice(0, slash)}/*`))).allowed) return
  throw new ApiError(forbidden(csr.metadata.name ?? '', `user not permitted to ${verb} requests with signerName "${signerName}"`))
}

const forbidden = (name: string, why: string) =>
  failure(403, 'Forbidden', `certificatesigningrequests.${certificatesGroup} "${name}" is forbidden: ${why}`, { name, group: certificatesGroup, kind: 'certificatesigningrequests' })

async function admitCsrCreate(body: KubeObject): Promise<void> {
  const name = body.metadata?.name ?? ''
  const { csr } = requestOf(body)
  if (!csr) return // the store's validation names what is wrong with spec.request
  const bad = await checkCsrSignature(csr)
  if (bad) throw new ApiError(invalid(certificatesGroup, 'CertificateSigningRequest', name, [toStatusCause(invalidCause('spec.request', '', bad, '[]byte{...}'))]))
  if (specOf(body).signerName === apiServerClientSigner && csr.organizations.includes(mastersGroup)) {
    throw new ApiError(forbidden(name, `use of ${apiServerClientSigner} signer with ${mastersGroup} group is not allowed`))
  }
}
