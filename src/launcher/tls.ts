import { webcrypto as crypto, X509Certificate } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export interface TlsFiles {
  certPath: string
  keyPath: string
  cert: string
  key: string
}

const DAY_MS = 24 * 60 * 60 * 1000
const VALID_DAYS = 825
// Regenerate a bit before expiry rather than let kubectl start failing mid-session.
const RENEW_BEFORE_DAYS = 7

/**
 * Returns the state dir's serving certificate, creating it on first start. The certificate is
 * self-signed and marked as a CA, so the one PEM serves as the server certificate, as the
 * kubeconfig's certificate-authority-data that kubectl verifies it with, and as the cluster CA
 * that signs approved client-certificate requests (its key goes to the Worker as CLUSTER_CA_KEY).
 */
export async function ensureTls(stateDir: string): Promise<TlsFiles> {
  const dir = join(stateDir, 'tls')
  const certPath = join(dir, 'cert.pem')
  const keyPath = join(dir, 'key.pem')
  if (existsSync(certPath) && existsSync(keyPath)) {
    const [cert, key] = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')])
    if (stillUsable(cert)) return { certPath, keyPath, cert, key }
  }
  const pems = await generateCa()
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await writeFile(keyPath, pems.private, { mode: 0o600 })
  await writeFile(certPath, pems.cert)
  return { certPath, keyPath, cert: pems.cert, key: pems.private }
}

/**
 * A new P-256 key and its self-signed CA certificate (CN=edgeplane) for the loopback names, with
 * a subjectKeyIdentifier as a cluster CA needs (RFC 5280's method 1: SHA-1 of the public key).
 * clientAuth too: it is the cluster CA, and TLS stacks hold a CA's extended key usages against the
 * certificates it issues.
 */
async function generateCa(): Promise<{ cert: string; private: string }> {
  return selfSignedCertificate({
    commonName: 'edgeplane',
    ips: ['127.0.0.1', '::1'],
    dnsNames: ['localhost'],
    clientAuth: true,
    validDays: VALID_DAYS,
  })
}

export interface SelfSignedOptions {
  commonName: string
  ips: string[]
  dnsNames: string[]
  /** extended key usage clientAuth beside serverAuth */
  clientAuth?: boolean
  validDays: number
}

/** A new P-256 key and a self-signed certificate for it that is its own CA (so the one PEM is the trust root too). */
export async function selfSignedCertificate(
  o: SelfSignedOptions,
): Promise<{ cert: string; private: string }> {
  // Loaded only when needed: it is the slowest of the launcher's imports.
  const x509 = await import('@peculiar/x509')
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' }
  const keys = await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])
  const now = Date.now()
  const serial = crypto.getRandomValues(new Uint8Array(16))
  serial[0]! &= 0x7f
  const usages = [
    x509.ExtendedKeyUsage.serverAuth,
    ...(o.clientAuth ? [x509.ExtendedKeyUsage.clientAuth] : []),
  ]
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(serial).toString('hex'),
    name: `CN=${o.commonName}`,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + o.validDays * DAY_MS),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign,
        true,
      ),
      new x509.ExtendedKeyUsageExtension(usages),
      new x509.SubjectAlternativeNameExtension([
        ...o.ips.map((value) => ({ type: 'ip' as const, value })),
        ...o.dnsNames.map((value) => ({ type: 'dns' as const, value })),
      ]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  })
  const pkcs8 = Buffer.from(
    (await crypto.subtle.exportKey('pkcs8', keys.privateKey)) as ArrayBuffer,
  )
  return { cert: cert.toString('pem'), private: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') }
}

function stillUsable(pem: string): boolean {
  try {
    const x = new X509Certificate(pem)
    const sans = x.subjectAltName ?? ''
    const renewAt = new Date(x.validTo).getTime() - RENEW_BEFORE_DAYS * DAY_MS
    return (
      Date.now() < renewAt &&
      sans.includes('IP Address:127.0.0.1') &&
      sans.includes('DNS:localhost') &&
      (x.keyUsage ?? []).includes('1.3.6.1.5.5.7.3.2')
    )
  } catch {
    return false
  }
}
