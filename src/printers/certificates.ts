/** Tables for certificates.k8s.io CertificateSigningRequests (columns of upstream's printer). */
import type { KubeObject } from '../apimachinery/types'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'
import { humanDuration } from './duration'
import { specOf, statusOf } from '../apis/certificates/csr-object'

/** Upstream's extractCSRStatus: Denied, else Approved, else Pending; then Failed and Issued. */
function condition(obj: KubeObject): string {
  const types = new Set((statusOf(obj).conditions ?? []).map((c) => c.type))
  let s = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending'
  if (types.has('Failed')) s += ',Failed'
  if (statusOf(obj).certificate) s += ',Issued'
  return s
}

export const csrPrinter: Printer = {
  columns: [
    nameColumn,
    ageColumn,
    column(
      'SignerName',
      'string',
      'signerName indicates the requested signer, and is a qualified name.',
    ),
    column(
      'Requestor',
      'string',
      'request contains an x509 certificate signing request encoded in a "CERTIFICATE REQUEST" PEM block.',
    ),
    column(
      'RequestedDuration',
      'string',
      'expirationSeconds is the requested duration of validity of the issued certificate.',
    ),
    column(
      'Condition',
      'string',
      'conditions applied to the request. Known conditions are "Approved", "Denied", and "Failed".',
    ),
  ],
  cells(obj: KubeObject, now) {
    const spec = specOf(obj)
    const duration =
      typeof spec.expirationSeconds === 'number'
        ? humanDuration(spec.expirationSeconds * 1000)
        : '<none>'
    return [
      objectName(obj),
      objectAge(obj, now),
      spec.signerName || '<none>',
      spec.username ?? '',
      duration,
      condition(obj),
    ]
  },
}
