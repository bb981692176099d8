import type { Env } from '../env'
import { parseCertificate } from '../apimachinery/x509/authority'
import { nameFromDer, type DistinguishedName } from '../apimachinery/x509/distinguished-name'
import { pemBlocks } from '../apimachinery/x509/pem'

export interface ClusterCaName {
  subject: DistinguishedName
  notBefore: number
  notAfter: number
}

let cached: { pem: string; name: ClusterCaName | Error } | undefined

/**
 * The subject and validity of the cluster CA certificate (CLUSTER_CA_CERT; its key is not needed),
 * read once per isolate; undefined when none is configured, an Error when it cannot be read.
 */
export function clusterCaName(env: Pick<Env, 'CLUSTER_CA_CERT'>): ClusterCaName | Error | undefined {
  const pem = env.CLUSTER_CA_CERT
  if (!pem) return undefined
  if (cached?.pem !== pem) cached = { pem, name: read(pem) }
  return cached.name
}

function read(pem: string): ClusterCaName | Error {
  const block = pemBlocks(pem).find((b) => b.label === 'CERTIFICATE')
  if (!block) return new Error('CLUSTER_CA_CERT holds no PEM CERTIFICATE block')
  try {
    const cert = parseCertificate(block.der)
    return { subject: nameFromDer(cert.subject), notBefore: cert.notBefore, notAfter: cert.notAfter }
  } catch (err) {
    return new Error(`CLUSTER_CA_CERT cannot be read: ${err instanceof Error ? err.message : String(err)}`)
  }
}
