import { execFileSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { verifiedIdentity } from '../../../src/launcher/https-front'

const dir = mkdtempSync(join(tmpdir(), 'front-'))
const openssl = (...args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
const cert = (f: string) => new X509Certificate(readFileSync(join(dir, f)))
const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes']

function ca(name: string) {
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    `${name}.key`,
    '-subj',
    '/CN=edgeplane',
    '-days',
    '2',
    '-out',
    `${name}.crt`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  )
}
function leaf(name: string, issuer: string, subject: string, ext: string) {
  openssl('req', '-new', ...ec, '-keyout', `${name}.key`, '-subj', subject, '-out', `${name}.csr`)
  writeFileSync(join(dir, `${name}.ext`), ext)
  openssl(
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${issuer}.crt`,
    '-CAkey',
    `${issuer}.key`,
    '-days',
    '1',
    '-out',
    `${name}.crt`,
    '-extfile',
    `${name}.ext`,
  )
  return cert(`${name}.crt`)
}

describe('the https front’s client-certificate check', () => {
  ca('cluster')
  ca('foreign')
  const clusterCa = cert('cluster.crt')

  it('takes CN as the user and every O as a group for a client certificate the cluster CA issued', () => {
    expect(
      verifiedIdentity(
        leaf('jane', 'cluster', '/CN=jane/O=devs/O=qa', 'extendedKeyUsage=clientAuth'),
        clusterCa,
        Date.now(),
      ),
    ).toEqual({ user: 'jane', groups: ['devs', 'qa'] })
    expect(
      verifiedIdentity(
        leaf('plain', 'cluster', '/CN=plain', 'basicConstraints=CA:FALSE'),
        clusterCa,
        Date.now(),
      ),
    ).toEqual({ user: 'plain', groups: [] })
  })

  it('refuses another CA’s certificate, even under the same name', () => {
    expect(
      verifiedIdentity(
        leaf('forged', 'foreign', '/CN=jane/O=system:masters', 'extendedKeyUsage=clientAuth'),
        clusterCa,
        Date.now(),
      ),
    ).toBeUndefined()
  })

  it('refuses a certificate outside its validity, one for servers only, and one without a CN', () => {
    const jane = leaf('jane2', 'cluster', '/CN=jane', 'extendedKeyUsage=clientAuth')
    const now = Date.now()
    expect(verifiedIdentity(jane, clusterCa, now + 3 * 86400_000)).toBeUndefined()
    expect(verifiedIdentity(jane, clusterCa, now - 86400_000)).toBeUndefined()
    expect(
      verifiedIdentity(
        leaf('server', 'cluster', '/CN=server', 'extendedKeyUsage=serverAuth'),
        clusterCa,
        now,
      ),
    ).toBeUndefined()
    expect(
      verifiedIdentity(
        leaf('nocn', 'cluster', '/O=devs', 'extendedKeyUsage=clientAuth'),
        clusterCa,
        now,
      ),
    ).toBeUndefined()
    expect(verifiedIdentity(undefined, clusterCa, now)).toBeUndefined()
  })
})
