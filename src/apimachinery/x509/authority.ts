/**
 * The cluster certificate authority: its certificate and private key, from the Worker's secret
 * bindings CLUSTER_CA_CERT (PEM) and CLUSTER_CA_KEY (PKCS#8 PEM), and X.509 v3 certificates
 * signed with it through WebCrypto.
 */
import {
  bitString,
  boolean,
  children,
  encode,
  expect,
  explicit,
  octetString,
  oid,
  readBitStringBytes,
  readOid,
  readOne,
  readTime,
  sequence,
  tag,
  time,
  unsignedInteger,
  type Der,
} from './der'
import {
  ecdsaRawToDer,
  keyAlgorithmOf,
  signatureAlgorithmFor,
  type KeyAlgorithm,
} from './algorithms'
import { pemBlocks, toPem } from './pem'

export interface CertificateInfo {
  tbs: Der
  subject: Der
  issuer: Der
  publicKey: Der
  notBefore: number
  notAfter: number
  subjectKeyId?: Uint8Array
  signatureAlgorithm: Der
  signature: Uint8Array
}

/** A key Web Crypto imported (the platform's CryptoKey, named the same on Node and workerd). */
type SigningKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>

export interface Authority {
  cert: CertificateInfo
  /** the CA certificate as PEM */
  pem: string
  key: SigningKey
  keyAlgorithm: KeyAlgorithm
}

const oidSubjectKeyId = '2.5.29.14'

/** Reads an X.509 certificate's parts the signer needs. */
export function parseCertificate(der: Uint8Array): CertificateInfo {
  const [tbs, signatureAlgorithm, sig] = children(expect(readOne(der), tag.sequence, 'certificate'))
  const fields = children(expect(tbs, tag.sequence, 'tbsCertificate'))
  const rest = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields
  const [serial, , issuer, validity, subject, publicKey, ...optional] = rest
  expect(serial, tag.integer, 'serialNumber')
  const [notBefore, notAfter] = children(expect(validity, tag.sequence, 'validity'))
  const info: CertificateInfo = {
    tbs: tbs!,
    subject: expect(subject, tag.sequence, 'subject'),
    issuer: expect(issuer, tag.sequence, 'issuer'),
    publicKey: expect(publicKey, tag.sequence, 'subjectPublicKeyInfo'),
    notBefore: readTime(notBefore!),
    notAfter: readTime(notAfter!),
    signatureAlgorithm: expect(signatureAlgorithm, tag.sequence, 'signatureAlgorithm'),
    signature: readBitStringBytes(sig!),
  }
  const extensions = optional.find((o) => o.tag === 0xa3)
  if (extensions) {
    for (const ext of children(children(extensions)[0]!)) {
      const parts = children(ext)
      if (readOid(parts[0]!) === oidSubjectKeyId)
        info.subjectKeyId = expect(
          readOne(parts[parts.length - 1]!.value),
          tag.octetString,
          'subjectKeyIdentifier',
        ).value
    }
  }
  return info
}

/** Loads the authority from its PEMs; throws with a message naming what is wrong. */
export async function loadAuthority(certPem: string, keyPem: string): Promise<Authority> {
  const certBlock = pemBlocks(certPem).find((b) => b.label === 'CERTIFICATE')
  if (!certBlock) throw new Error('CLUSTER_CA_CERT holds no PEM CERTIFICATE block')
  const keyBlock = pemBlocks(keyPem).find((b) => b.label === 'PRIVATE KEY')
  if (!keyBlock)
    throw new Error(
      'CLUSTER_CA_KEY holds no PKCS#8 "PRIVATE KEY" PEM block (convert with `openssl pkcs8 -topk8 -nocrypt`)',
    )
  const cert = parseCertificate(certBlock.der)
  const keyAlgorithm = keyAlgorithmOf(cert.publicKey)
  const importAlg =
    keyAlgorithm.name === 'ECDSA'
      ? { name: 'ECDSA', namedCurve: keyAlgorithm.namedCurve }
      : keyAlgorithm
  const key = await crypto.subtle.importKey('pkcs8', keyBlock.der, importAlg, false, ['sign'])
  return { cert, pem: `${certPem.trim()}\n`, key, keyAlgorithm }
}

/** X.509 key usages by name, as the CSR's spec.usages spells them (bit numbers of RFC 5280 §4.2.1.3). */
const keyUsageBits: Record<string, number> = {
  'digital signature': 0,
  'content commitment': 1,
  'key encipherment': 2,
  'data encipherment': 3,
  'key agreement': 4,
  'cert sign': 5,
  'crl sign': 6,
}

const extKeyUsageOids: Record<string, string> = {
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
}

export interface IssueRequest {
  subject: Der
  publicKey: Der
  subjectAltName?: Uint8Array
  usages: string[]
  notBefore: number
  notAfter: number
}

const extension = (id: string, critical: boolean, value: Uint8Array) =>
  sequence(oid(id), ...(critical ? [boolean(true)] : []), octetString(value))

function keyUsage(usages: string[]): Uint8Array | undefined {
  const bits = usages.map((u) => keyUsageBits[u]).filter((b): b is number => b !== undefined)
  if (!bits.length) return undefined
  const highest = Math.max(...bits)
  const bytes = new Uint8Array(Math.floor(highest / 8) + 1)
  for (const b of bits) bytes[b >> 3]! |= 0x80 >> (b & 7)
  return bitString(bytes, 7 - (highest & 7))
}

/** Signs an end-entity certificate for the request with the authority. */
export async function issueCertificate(ca: Authority, req: IssueRequest): Promise<string> {
  const serial = crypto.getRandomValues(new Uint8Array(16))
  serial[0]! &= 0x7f
  const keyId =
    ca.cert.subjectKeyId ??
    new Uint8Array(
      await crypto.subtle.digest('SHA-1', readBitStringBytes(children(ca.cert.publicKey)[1]!)),
    )
  const exts: Uint8Array[] = []
  const ku = keyUsage(req.usages)
  if (ku) exts.push(extension('2.5.29.15', true, ku))
  const eku = req.usages.map((u) => extKeyUsageOids[u]).filter((o): o is string => !!o)
  if (eku.length) exts.push(extension('2.5.29.37', false, sequence(...eku.map(oid))))
  exts.push(extension('2.5.29.19', true, sequence()))
  exts.push(extension('2.5.29.35', false, sequence(encode(0x80, keyId))))
  if (req.subjectAltName) exts.push(extension('2.5.29.17', false, req.subjectAltName))
  const sig = signatureAlgorithmFor(ca.keyAlgorithm)
  const tbs = sequence(
    explicit(0, unsignedInteger(new Uint8Array([2]))),
    unsignedInteger(serial),
    sig.identifier,
    ca.cert.subject.raw,
    sequence(time(req.notBefore), time(req.notAfter)),
    req.subject.raw,
    req.publicKey.raw,
    explicit(3, sequence(...exts)),
  )
  const raw = new Uint8Array(await crypto.subtle.sign(sig.params, ca.key, tbs))
  const signature = ca.keyAlgorithm.name === 'ECDSA' ? ecdsaRawToDer(raw) : raw
  return toPem('CERTIFICATE', sequence(tbs, sig.identifier, bitString(signature)))
}
