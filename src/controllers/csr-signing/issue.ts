import type { ControllerBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { specOf } from '../../apis/certificates/csr-object'
import { requestOf } from '../../apis/certificates/csr-validation'
import { checkCsrSignature } from '../../apimachinery/x509/csr'
import { clusterAuthority } from '../../certificates/cluster-ca'
import { issueCertificate } from '../../apimachinery/x509/authority'
import { failedStatus } from './reconcile'

/**
 * Signs an approved request with the cluster CA: the request's subject and key, its usages, valid
 * from notBefore until notAfter or the CA's own expiry, whichever comes first. A request whose
 * signature does not hold is marked Failed instead. Returns the object to write through `status`.
 */
export async function signedStatus(
  env: ControllerBindings,
  csr: KubeObject,
  notBefore: number,
  notAfter: number,
  now: number,
): Promise<KubeObject> {
  const ca = await clusterAuthority(env)
  if (!ca) throw new Error('no cluster CA is configured (CLUSTER_CA_CERT, CLUSTER_CA_KEY)')
  const { csr: request, error } = requestOf(csr)
  if (!request) return failedStatus(csr, `unable to parse csr: ${error}`, now)
  const bad = await checkCsrSignature(request)
  if (bad) return failedStatus(csr, bad, now)
  const pem = await issueCertificate(ca, {
    subject: request.subject,
    publicKey: request.publicKey,
    subjectAltName: request.subjectAltName,
    usages: specOf(csr).usages ?? [],
    notBefore,
    notAfter: Math.min(notAfter, ca.cert.notAfter),
  })
  return { ...csr, status: { ...(csr.status as object), certificate: btoa(pem) } }
}
