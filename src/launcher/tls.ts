import { X509Certificate } from 'node:crypto'
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
  // Loaded only when needed: it is the slowest of the launcher's imports.
  const { generate } = await import('selfsigned')
  const now = new Date()
  const pems = await generate([{ name: 'commonName', value: 'edgeplane' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - DAY_MS),
    notAfterDate: new Date(now.getTime() + VALID_DAYS * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      // clientAuth too: it is the cluster CA, and TLS stacks hold a CA's extended key usages against the certificates it issues.
      { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  })
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await writeFile(keyPath, pems.private, { mode: 0o600 })
  await writeFile(certPath, pems.cert)
  return { certPath, keyPath, cert: pems.cert, key: pems.private }
}

function stillUsable(pem: string): boolean {
  try {
    const x = new X509Certificate(pem)
    const sans = x.subjectAltName ?? ''
    const renewAt = new Date(x.validTo).getTime() - RENEW_BEFORE_DAYS * DAY_MS
    return Date.now() < renewAt && sans.includes('IP Address:127.0.0.1') && sans.includes('DNS:localhost') && (x.keyUsage ?? []).includes('1.3.6.1.5.5.7.3.2')
  } catch {
    return false
  }
}
