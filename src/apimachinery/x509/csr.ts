/** PKCS#10 certificate requests (RFC 2986), read from PEM as kube-apiserver reads spec.request. */
import {
  children,
  DerError,
  expect,
  readBitStringBytes,
  readOid,
  readOne,
  readString,
  tag,
  type Der,
} from './der'
import { keyAlgorithmOf, verifySignature } from './algorithms'
import { pemBlocks } from './pem'

export interface CertificateRequest {
  /** the signed part, which the signature covers */
  info: Der
  /** the subject Name, exactly as encoded */
  subject: Der
  commonName: string
  organizations: string[]
  /** the SubjectPublicKeyInfo, exactly as encoded */
  publicKey: Der
  /** the requested subjectAltName extension (its extnValue), if any */
  subjectAltName?: Uint8Array
  signatureAlgorithm: Der
  signature: Uint8Array
}

const oidCommonName = '2.5.4.3'
const oidOrganization = '2.5.4.10'
const oidExtensionRequest = '1.2.840.113549.1.9.14'
const oidSubjectAltName = '2.5.29.17'

/** The attributes of a Name, in order: `[oid, text]`. */
export function nameAttributes(name: Der): [string, string][] {
  const out: [string, string][] = []
  for (const rdn of children(expect(name, tag.sequence, 'name'))) {
    for (const atv of children(expect(rdn, tag.set, 'relative distinguished name'))) {
      const [type, value] = children(expect(atv, tag.sequence, 'attribute'))
      out.push([readOid(type!), readString(value!)])
    }
  }
  return out
}

/**
 * Reads spec.request as upstream's ParseCSR does: the first PEM block must be a `CERTIFICATE
 * REQUEST` holding a well-formed PKCS#10 request. Throws an Error with upstream's wording.
 */
export function parseCsrPem(pem: string): CertificateRequest {
  const block = pemBlocks(pem)[0]
  if (!block || block.label !== 'CERTIFICATE REQUEST')
    throw new Error('PEM block type must be CERTIFICATE REQUEST')
  try {
    return parseCsrDer(block.der)
  } catch (err) {
    if (err instanceof DerError) throw new Error(`asn1: structure error: ${err.message}`)
    throw err
  }
}

export function parseCsrDer(der: Uint8Array): CertificateRequest {
  const [info, signatureAlgorithm, sig] = children(
    expect(readOne(der), tag.sequence, 'certificate request'),
  )
  const [version, subject, publicKey, attrs] = children(
    expect(info, tag.sequence, 'certificationRequestInfo'),
  )
  expect(version, tag.integer, 'version')
  expect(subject, tag.sequence, 'subject')
  keyAlgorithmOf(expect(publicKey, tag.sequence, 'subjectPublicKeyInfo'))
  const names = nameAttributes(subject!)
  const request: CertificateRequest = {
    info: info!,
    subject: subject!,
    commonName: names.find(([t]) => t === oidCommonName)?.[1] ?? '',
    organizations: names.filter(([t]) => t === oidOrganization).map(([, v]) => v),
    publicKey: publicKey!,
    signatureAlgorithm: expect(signatureAlgorithm, tag.sequence, 'signatureAlgorithm'),
    signature: readBitStringBytes(sig!),
  }
  if (attrs && attrs.tag === 0xa0) request.subjectAltName = requestedSubjectAltName(attrs)
  return request
}

function requestedSubjectAltName(attrs: Der): Uint8Array | undefined {
  for (const attr of children(attrs)) {
    const [type, values] = children(expect(attr, tag.sequence, 'attribute'))
    if (readOid(type!) !== oidExtensionRequest) continue
    for (const exts of children(expect(values, tag.set, 'attribute values'))) {
      for (const ext of children(expect(exts, tag.sequence, 'extensions'))) {
        const parts = children(expect(ext, tag.sequence, 'extension'))
        if (readOid(parts[0]!) === oidSubjectAltName)
          return expect(parts[parts.length - 1], tag.octetString, 'extnValue').value
      }
    }
  }
  return undefined
}

/** Whether the request is signed by the key it carries (upstream's CheckSignature); the error names why not. */
export async function checkCsrSignature(csr: CertificateRequest): Promise<string | undefined> {
  try {
    const ok = await verifySignature(
      csr.publicKey,
      csr.signatureAlgorithm,
      csr.info.raw,
      csr.signature,
    )
    return ok ? undefined : 'x509: signature verification failure'
  } catch (err) {
    return `x509: ${err instanceof Error ? err.message : String(err)}`
  }
}
