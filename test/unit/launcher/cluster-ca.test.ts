import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { clusterCaName } from '../../../src/certificates/cluster-ca-name'
import { ensureTls } from '../../../src/launcher/tls'

const stateDir = mkdtempSync(join(tmpdir(), 'cluster-ca-'))
afterAll(() => rmSync(stateDir, { recursive: true, force: true }))

describe('the launcher’s cluster CA', () => {
  it('carries a subjectKeyIdentifier, read as OpenSSL prints it, and is kept across starts', async () => {
    const tls = await ensureTls(stateDir)
    const printed = execFileSync('openssl', [
      'x509',
      '-in',
      tls.certPath,
      '-noout',
      '-ext',
      'subjectKeyIdentifier',
    ]).toString()
    const keyId = /([0-9A-F]{2}(?::[0-9A-F]{2})+)/.exec(printed)?.[1]
    expect(keyId, printed).toBeDefined()
    const ca = clusterCaName({ CLUSTER_CA_CERT: tls.cert })
    expect(ca instanceof Error ? ca.message : ca?.subjectKeyId).toBe(
      keyId!.replace(/:/g, '').toLowerCase(),
    )
    // A CA for TLS to the loopback names, that signs certificates: what kubectl and the signer need.
    const text = execFileSync('openssl', [
      'x509',
      '-in',
      tls.certPath,
      '-noout',
      '-ext',
      'basicConstraints,keyUsage,subjectAltName',
    ]).toString()
    for (const want of ['CA:TRUE', 'Certificate Sign', 'IP Address:127.0.0.1', 'DNS:localhost'])
      expect(text).toContain(want)
    expect((await ensureTls(stateDir)).cert).toBe(tls.cert)
  })
})
