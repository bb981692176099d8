import type { Variables } from '../settings/variables'
import { parseCertificate } from '../apimachinery/x509/authority'
import { hex, nameFromDer, type DistinguishedName } from '../apimachinery/x509/distinguished-name'
import { pemBlocks } from '../apimachinery/x509/pem'

export interface ClusterCaName {
  subject: DistinguishedName
  /** Its subjectKeyIdentifier, lower-case hex without separators. */
  subjectKeyId: string
  notBefore: number
  notAfter: number
}

let cached: { pem: string; name: ClusterCaName | Error } | undefined

/**
 * The subject, key identifier and validity of the cluster CA certificate (CLUSTER_CA_CERT; its key
 * is not needed), read once per isolate; undefined when none is configured, an Error when it
 * cannot be read or carries no subjectKeyIdentifier extension.
 */
export function clusterCaName(
  env: Pick<Variables, 'CLUSTER_CA_CERT'>,
): ClusterCaName | Error | undefined {
  const pem = env.CLUSTER_CA_CERT
  if (!pem) return undefined
  if (cached?.pem !== pem) cached = { pem, name: read(pem) }
  return cached.name
}

/** A key identifier as compared: lower-case hex, any `:` separators dropped; undefined when it is not hex. */
export function normalizeKeyId(text: string): string | undefined {
  const digits = text.trim().replace(/:/g, '').toLowerCase()
  return /^[0-9a-f]+$/.test(digits) && digits.length % 2 === 0 ? digits : undefined
}

function read(pem: string): ClusterCaName | Error {
  const block = pemBlocks(pem).find((b) => b.label === 'CERTIFICATE')
  if (!block) return new Error('CLUSTER_CA_CERT holds no PEM CERTIFICATE block')
  try {
    const cert = parseCertificate(block.der)
    if (!cert.subjectKeyId?.length)
      return new Error(
        'CLUSTER_CA_CERT has no subjectKeyIdentifier extension, which tells it apart from other CAs at the edge',
      )
    return {
      subject: nameFromDer(cert.subject),
      subjectKeyId: hex(cert.subjectKeyId),
      notBefore: cert.notBefore,
      notAfter: cert.notAfter,
    }
  } catch (err) {
    return new Error(
      `CLUSTER_CA_CERT cannot be read: ${err instanceof Error ? err.message : String(err)}`,
    )
  }
}
