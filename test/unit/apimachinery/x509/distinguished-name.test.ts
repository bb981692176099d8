import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseCertificate } from '../../../../src/apimachinery/x509/authority'
import {
  attributeValues,
  nameFromDer,
  oidCommonName,
  oidOrganization,
  parseDistinguishedName,
  sameName,
} from '../../../../src/apimachinery/x509/distinguished-name'
import { pemBlocks } from '../../../../src/apimachinery/x509/pem'
import { parseCertificateTime } from '../../../../src/api/authentication/edge-client-cert'

const dir = mkdtempSync(join(tmpdir(), 'dn-'))
const openssl = (...args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString()

/** A self-signed certificate with this subject: its DER subject, and its subject and dates as OpenSSL prints them. */
function certificate(name: string, subject: string) {
  openssl(
    'req',
    '-x509',
    '-new',
    '-key',
    'key.pem',
    '-utf8',
    '-subj',
    subject,
    '-days',
    '2',
    '-out',
    `${name}.pem`,
  )
  const pem = readFileSync(join(dir, `${name}.pem`), 'utf8')
  const printed = (flag: string, nameopt = 'RFC2253') =>
    openssl('x509', '-in', `${name}.pem`, '-noout', flag, '-nameopt', nameopt)
      .trim()
      .replace(/^[a-zA-Z]+=/, '')
  return { der: parseCertificate(pemBlocks(pem)[0]!.der), printed }
}

const subjects: Record<string, string> = {
  plain: '/CN=jane',
  comma: '/C=US/ST=Texas/O=Example, Inc./OU=R\\+D/CN=jane',
  multiValued: '/CN=x+UID=y/O=devs/O=qa',
  spaces: '/CN= lead/O=#hash/OU=trail ',
  specials: '/CN=a"b<c>d;e\\\\f=g',
  utf8: '/CN=Jürgen/O=Ünïcode/emailAddress=j@x.io',
}

describe('distinguished names as OpenSSL prints them (RFC 2253)', () => {
  beforeAll(() => {
    openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'key.pem')
  })

  it('reads back to the same name as the certificate’s DER, escapes and UTF-8 bytes included', () => {
    for (const [name, subject] of Object.entries(subjects)) {
      const cert = certificate(name, subject)
      const fromDer = nameFromDer(cert.der.subject)
      for (const nameopt of ['RFC2253', 'RFC2253,-esc_msb']) {
        const printed = cert.printed('-subject', nameopt)
        const parsed = parseDistinguishedName(printed)
        expect(parsed, `${name} ${nameopt}: ${printed}`).toBeDefined()
        expect(sameName(parsed!, fromDer), `${name} ${nameopt}: ${printed}`).toBe(true)
      }
      expect(
        sameName(parseDistinguishedName(cert.printed('-issuer'))!, nameFromDer(cert.der.issuer)),
      ).toBe(true)
    }
  })

  it('finds the common name and organizations as kube-apiserver does', () => {
    const comma = parseDistinguishedName(
      certificate('comma2', subjects.comma!).printed('-subject'),
    )!
    expect(attributeValues(comma, oidCommonName)).toEqual(['jane'])
    expect(attributeValues(comma, oidOrganization)).toEqual(['Example, Inc.'])
    const multi = parseDistinguishedName(
      certificate('multi2', subjects.multiValued!).printed('-subject'),
    )!
    expect(attributeValues(multi, oidCommonName)).toEqual(['x'])
    expect(attributeValues(multi, oidOrganization)).toEqual(['devs', 'qa'])
  })

  it('tells names apart by order, by value and by escaping, and refuses what is not a name', () => {
    const ca = parseDistinguishedName('CN=edgeplane-ca,O=Example')!
    expect(sameName(parseDistinguishedName('O=Example,CN=edgeplane-ca')!, ca)).toBe(false)
    expect(sameName(parseDistinguishedName('CN=edgeplane-ca,O=Example,C=US')!, ca)).toBe(false)
    expect(sameName(parseDistinguishedName('CN=edgeplane-ca,O=example')!, ca)).toBe(false)
    expect(sameName(parseDistinguishedName('cn=edgeplane-ca, o=Example')!, ca)).toBe(true)
    expect(
      sameName(parseDistinguishedName('2.5.4.3=edgeplane-ca,O=#0c074578616d706c65')!, ca),
    ).toBe(true)
    // An escaped comma is part of the value, not a new attribute.
    expect(
      attributeValues(parseDistinguishedName('CN=jane\\,O=system:masters')!, oidOrganization),
    ).toEqual([])
    for (const bad of ['CN', 'CN=a"b', 'CN=a\\zz', 'XX=unknown', 'CN=ok,', 'CN=\\C3'])
      expect(parseDistinguishedName(bad), bad).toBeUndefined()
  })

  it('reads certificate times as OpenSSL prints them', () => {
    const cert = certificate('dates', '/CN=dates')
    const notBefore = openssl('x509', '-in', 'dates.pem', '-noout', '-startdate')
      .trim()
      .replace('notBefore=', '')
    const notAfter = openssl('x509', '-in', 'dates.pem', '-noout', '-enddate')
      .trim()
      .replace('notAfter=', '')
    expect(parseCertificateTime(notBefore)).toBe(cert.der.notBefore)
    expect(parseCertificateTime(notAfter)).toBe(cert.der.notAfter)
    expect(parseCertificateTime('Dec  2 09:05:01 2026 GMT')).toBe(Date.UTC(2026, 11, 2, 9, 5, 1))
    expect(parseCertificateTime('2026-12-02T09:05:01Z')).toBeUndefined()
  })
})
