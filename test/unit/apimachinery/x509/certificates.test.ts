import { execFileSync } from 'node:child_process'
import { X509Certificate, createPublicKey } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { checkCsrSignature, parseCsrPem } from '../../../../src/apimachinery/x509/csr'
import {
  issueCertificate,
  loadAuthority,
  parseCertificate,
} from '../../../../src/apimachinery/x509/authority'
import {
  oid,
  readOid,
  readOne,
  time,
  readTime,
  unsignedInteger,
  readDer,
} from '../../../../src/apimachinery/x509/der'
import { pemBlocks } from '../../../../src/apimachinery/x509/pem'

const dir = mkdtempSync(join(tmpdir(), 'x509-'))
const openssl = (...args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString()
const read = (f: string) => readFileSync(join(dir, f), 'utf8')

function makeCa(name: string, keyArgs: string[]) {
  openssl('genpkey', ...keyArgs, '-out', `${name}.key`)
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    `${name}.key`,
    '-subj',
    `/CN=${name}`,
    '-days',
    '30',
    '-out',
    `${name}.crt`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,digitalSignature',
  )
  return { cert: read(`${name}.crt`), key: read(`${name}.key`) }
}

function makeCsr(name: string, subject: string, keyArgs: string[], extra: string[] = []) {
  openssl('genpkey', ...keyArgs, '-out', `${name}.key`)
  openssl('req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`, ...extra)
  return read(`${name}.csr`)
}

const ec = ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256']
const rsa = ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048']

describe('DER', () => {
  it('round-trips object identifiers, integers and times', () => {
    for (const id of ['1.2.840.10045.3.1.7', '2.5.4.3', '1.3.6.1.5.5.7.3.2', '2.999.3'])
      expect(readOid(readOne(oid(id)))).toBe(id)
    expect([...unsignedInteger(new Uint8Array([0x80, 1]))]).toEqual([2, 3, 0, 0x80, 1])
    expect([...unsignedInteger(new Uint8Array([0, 0, 5]))]).toEqual([2, 1, 5])
    const t = Date.UTC(2031, 4, 6, 7, 8, 9)
    expect(readTime(readOne(time(t)))).toBe(t)
    expect(readOne(time(Date.UTC(2051, 0, 1))).tag).toBe(0x18)
  })

  it('refuses truncated and trailing data', () => {
    expect(() => readDer(new Uint8Array([0x30, 5, 1]))).toThrow(/truncated/)
    expect(() => readOne(new Uint8Array([0x05, 0, 0]))).toThrow(/trailing/)
  })
})

describe('certificate requests', () => {
  it('reads the subject and key of an ECDSA request and checks its signature', async () => {
    const csr = parseCsrPem(makeCsr('alice', '/CN=alice/O=dev/O=ops', ec))
    expect(csr.commonName).toBe('alice')
    expect(csr.organizations).toEqual(['dev', 'ops'])
    expect(await checkCsrSignature(csr)).toBeUndefined()
  })

  it('checks an RSA request and reads a requested subjectAltName', async () => {
    const csr = parseCsrPem(
      makeCsr('bob', '/CN=bob', rsa, ['-addext', 'subjectAltName=DNS:bob.example']),
    )
    expect(csr.subjectAltName).toBeDefined()
    expect(await checkCsrSignature(csr)).toBeUndefined()
  })

  it('finds a request whose signature does not match', async () => {
    const pem = makeCsr('carol', '/CN=carol', ec)
    const block = pemBlocks(pem)[0]!
    const der = Uint8Array.from(block.der)
    // flip a byte inside the subject's common name: the signature no longer covers it
    const at = Buffer.from(der).indexOf(Buffer.from('carol'))
    der[at] = 'k'.charCodeAt(0)
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.from(der).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`
    const csr = parseCsrPem(tampered)
    expect(csr.commonName).toBe('karol')
    expect(await checkCsrSignature(csr)).toMatch(/verification failure/)
  })

  it('refuses what is not a PEM certificate request', () => {
    expect(() => parseCsrPem('hello')).toThrow('PEM block type must be CERTIFICATE REQUEST')
    expect(() => parseCsrPem(makeCa('other', ec).cert)).toThrow(
      'PEM block type must be CERTIFICATE REQUEST',
    )
    expect(() =>
      parseCsrPem(
        '-----BEGIN CERTIFICATE REQUEST-----\nMAMCAQA=\n-----END CERTIFICATE REQUEST-----\n',
      ),
    ).toThrow(/asn1: structure error/)
  })
})

describe('issuing', () => {
  let ecCa: { cert: string; key: string }
  let rsaCa: { cert: string; key: string }
  beforeAll(() => {
    ecCa = makeCa('ec-ca', ec)
    rsaCa = makeCa('rsa-ca', rsa)
  })

  for (const [label, which] of [
    ['an ECDSA', 'ec'],
    ['an RSA', 'rsa'],
  ] as const) {
    it(`signs a client certificate that ${label} CA verifies, with the request's subject and key`, async () => {
      const ca = which === 'ec' ? ecCa : rsaCa
      const authority = await loadAuthority(ca.cert, ca.key)
      const csr = parseCsrPem(makeCsr(`dave-${which}`, '/CN=dave/O=team-a/O=team-b', ec))
      const now = Date.now()
      const pem = await issueCertificate(authority, {
        subject: csr.subject,
        publicKey: csr.publicKey,
        usages: ['digital signature', 'key encipherment', 'client auth'],
        notBefore: now - 300_000,
        notAfter: now + 3_600_000,
      })
      const cert = new X509Certificate(pem)
      const caCert = new X509Certificate(ca.cert)
      expect(cert.verify(caCert.publicKey)).toBe(true)
      expect(cert.checkIssued(caCert)).toBe(true)
      expect(cert.subject).toBe('CN=dave\nO=team-a\nO=team-b')
      expect(cert.ca).toBe(false)
      expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2'])
      expect(new Date(cert.validTo).getTime()).toBe(Math.floor((now + 3_600_000) / 1000) * 1000)
      expect(cert.publicKey.export({ format: 'pem', type: 'spki' })).toBe(
        createPublicKey(readFileSync(join(dir, `dave-${which}.key`))).export({
          format: 'pem',
          type: 'spki',
        }),
      )
      // openssl agrees: the chain verifies for TLS client use
      const certFile = join(dir, `dave-${which}.crt`)
      writeFileSync(certFile, pem)
      expect(
        openssl('verify', '-CAfile', `${which}-ca.crt`, '-purpose', 'sslclient', certFile),
      ).toContain('OK')
      expect(parseCertificate(pemBlocks(pem)[0]!.der).notAfter).toBe(
        Math.floor((now + 3_600_000) / 1000) * 1000,
      )
    })
  }

  it('refuses a key that is not PKCS#8', async () => {
    openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'sec1.key')
    await expect(loadAuthority(ecCa.cert, read('sec1.key'))).rejects.toThrow(/PKCS#8/)
  })
})
