import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'
import { issueCertificate, loadAuthority } from '../../src/apimachinery/x509/authority'
import { parseCsrPem } from '../../src/apimachinery/x509/csr'

// Certificates from the cluster CA through CertificateSigningRequests, and those certificates
// authenticating kubectl, as with kube-apiserver's kube-apiserver-client signer.
describe('CertificateSigningRequest and client-certificate authentication', () => {
  let server: TestServer
  const dir = mkdtempSync(join(tmpdir(), 'csr-e2e-'))
  const openssl = (...args: string[]) =>
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString()
  const file = (name: string) => join(dir, name)
  const run = (args: string[], kubeconfig = server.kubeconfig, stdin?: string) =>
    kubectl(args, { kubeconfig, stdin })
  const ok = async (args: string[], kubeconfig?: string, stdin?: string) => {
    const res = await run(args, kubeconfig, stdin)
    if (res.code !== 0)
      throw new Error(`kubectl ${args.join(' ')} exited ${res.code}: ${res.stderr}`)
    return res.stdout.trim()
  }

  /** A new key and a PEM request for the subject. */
  function request(name: string, subject: string): string {
    openssl(
      'genpkey',
      '-algorithm',
      'EC',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-out',
      `${name}.key`,
    )
    openssl('req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`)
    return readFileSync(file(`${name}.csr`), 'utf8')
  }

  function csrManifest(
    name: string,
    pem: string,
    opts: { usages?: string[]; expirationSeconds?: number } = {},
  ): string {
    return JSON.stringify({
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: {
        request: Buffer.from(pem).toString('base64'),
        signerName: 'kubernetes.io/kube-apiserver-client',
        ...(opts.expirationSeconds ? { expirationSeconds: opts.expirationSeconds } : {}),
        usages: opts.usages ?? ['client auth'],
      },
    })
  }

  /** A kubeconfig for the server that authenticates with the given certificate and key (PEM). */
  function certKubeconfig(name: string, certPem: string, keyPem: string): string {
    const b64 = (s: string) => Buffer.from(s).toString('base64')
    const path = file(`${name}.kubeconfig`)
    writeFileSync(
      path,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'edgeplane',
            cluster: { server: server.url, 'certificate-authority-data': b64(server.ca) },
          },
        ],
        users: [
          {
            name,
            user: { 'client-certificate-data': b64(certPem), 'client-key-data': b64(keyPem) },
          },
        ],
        contexts: [{ name, context: { cluster: 'edgeplane', user: name } }],
        'current-context': name,
      }),
    )
    return path
  }

  const issued = async (name: string) =>
    waitFor(
      async () => {
        const csr = await kubectlJson(['get', 'csr', name], { kubeconfig: server.kubeconfig })
        return csr.status?.certificate
          ? Buffer.from(csr.status.certificate, 'base64').toString()
          : undefined
      },
      { timeoutMs: 30_000, what: `a certificate for ${name}` },
    )

  let janeCert = ''

  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(async () => {
    await server?.dispose()
  })

  it('records the requester, lists with upstream columns, and issues once approved', async () => {
    await ok(
      ['apply', '-f', '-'],
      undefined,
      csrManifest('jane', request('jane', '/CN=jane/O=devs/O=qa'), { expirationSeconds: 3600 }),
    )
    const csr = await kubectlJson(['get', 'csr', 'jane'], { kubeconfig: server.kubeconfig })
    expect(csr.spec).toMatchObject({
      username: 'kubernetes-admin',
      groups: ['system:masters', 'system:authenticated'],
    })
    expect(await ok(['get', 'csr'])).toMatch(
      /^NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION\njane\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+kubernetes-admin\s+60m\s+Pending$/,
    )
    const described = await ok(['describe', 'csr', 'jane'])
    for (const line of [
      /Requesting User:\s+kubernetes-admin$/m,
      /Signer:\s+kubernetes\.io\/kube-apiserver-client$/m,
      /Status:\s+Pending$/m,
      /Common Name:\s+jane$/m,
    ])
      expect(described).toMatch(line)
    expect(await ok(['api-resources', '--api-group=certificates.k8s.io', '--no-headers'])).toMatch(
      /^certificatesigningrequests\s+csr\s+certificates\.k8s\.io\/v1\s+false\s+CertificateSigningRequest$/,
    )

    expect(await ok(['certificate', 'approve', 'jane'])).toBe(
      'certificatesigningrequest.certificates.k8s.io/jane approved',
    )
    janeCert = await issued('jane')
    writeFileSync(file('jane.crt'), janeCert)
    expect(openssl('x509', '-in', 'jane.crt', '-noout', '-subject')).toMatch(
      /CN\s*=\s*jane, O\s*=\s*devs, O\s*=\s*qa/,
    )
    expect(
      openssl(
        'verify',
        '-CAfile',
        join(server.stateDir, 'tls', 'cert.pem'),
        '-purpose',
        'sslclient',
        'jane.crt',
      ),
    ).toContain('OK')
    const end = new Date(
      openssl('x509', '-in', 'jane.crt', '-noout', '-enddate').trim().replace('notAfter=', ''),
    ).getTime()
    expect(Math.abs(end - (Date.now() + 3600_000))).toBeLessThan(120_000)
    const after = await kubectlJson(['get', 'csr', 'jane'], { kubeconfig: server.kubeconfig })
    expect(after.status.conditions).toEqual([
      expect.objectContaining({ type: 'Approved', status: 'True', reason: 'KubectlApprove' }),
    ])
    expect(await ok(['get', 'csr', 'jane', '--no-headers'])).toMatch(/Approved,Issued$/)
  })

  it('the issued certificate authenticates as its CN and organizations, and RBAC applies to that user', async () => {
    const kc = certKubeconfig('jane', janeCert, readFileSync(file('jane.key'), 'utf8'))
    const who = JSON.parse(await ok(['auth', 'whoami', '-o', 'json'], kc))
    expect(who.status.userInfo).toEqual({
      username: 'jane',
      groups: ['devs', 'qa', 'system:authenticated'],
    })
    const denied = await run(['get', 'configmaps', '-n', 'default'], kc)
    expect(denied.code).not.toBe(0)
    expect(denied.stderr).toContain(
      'User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"',
    )
    await ok([
      'create',
      'rolebinding',
      'devs-view',
      '--clusterrole=view',
      '--group=devs',
      '-n',
      'default',
    ])
    await waitFor(
      async () => (await run(['get', 'configmaps', '-n', 'default'], kc)).code === 0 || undefined,
      { timeoutMs: 15_000, what: 'the binding to apply' },
    )
  })

  it('approving needs approve on the signer, beyond update on the approval subresource', async () => {
    await ok(['apply', '-f', '-'], undefined, csrManifest('other', request('other', '/CN=other')))
    await ok([
      'create',
      'clusterrole',
      'csr-approval',
      '--verb=get,list,update',
      '--resource=certificatesigningrequests,certificatesigningrequests/approval',
    ])
    await ok([
      'create',
      'clusterrolebinding',
      'jane-csr-approval',
      '--clusterrole=csr-approval',
      '--user=jane',
    ])
    const kc = file('jane.kubeconfig')
    const refused = await waitFor(
      async () => {
        const res = await run(['certificate', 'approve', 'other'], kc)
        return res.stderr.includes('user not permitted') ? res : undefined
      },
      { timeoutMs: 15_000, what: 'the approval to reach the signer check' },
    )
    expect(refused.stderr).toContain(
      'certificatesigningrequests.certificates.k8s.io "other" is forbidden: user not permitted to approve requests with signerName "kubernetes.io/kube-apiserver-client"',
    )
    expect(
      (await kubectlJson(['get', 'csr', 'other'], { kubeconfig: server.kubeconfig })).status
        .conditions,
    ).toBeUndefined()
  })

  it('a denied request gets no certificate', async () => {
    expect(await ok(['certificate', 'deny', 'other'])).toBe(
      'certificatesigningrequest.certificates.k8s.io/other denied',
    )
    const csr = await kubectlJson(['get', 'csr', 'other'], { kubeconfig: server.kubeconfig })
    expect(csr.status.conditions).toEqual([
      expect.objectContaining({ type: 'Denied', status: 'True', reason: 'KubectlDeny' }),
    ])
    // a later request is issued, so the signer has had its pass over the denied one
    await ok(['apply', '-f', '-'], undefined, csrManifest('later', request('later', '/CN=later')))
    await ok(['certificate', 'approve', 'later'])
    await issued('later')
    expect(
      (await kubectlJson(['get', 'csr', 'other'], { kubeconfig: server.kubeconfig })).status
        .certificate,
    ).toBeUndefined()
    expect(await ok(['get', 'csr', 'other', '--no-headers'])).toMatch(/\sDenied$/)
  })

  it('refuses system:masters, and fails requests for usages a client certificate may not have', async () => {
    const masters = await run(
      ['apply', '-f', '-'],
      undefined,
      csrManifest('root', request('root', '/CN=root/O=system:masters')),
    )
    expect(masters.code).not.toBe(0)
    expect(masters.stderr).toContain(
      'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    )
    await ok(
      ['apply', '-f', '-'],
      undefined,
      csrManifest('serving', request('serving', '/CN=serving'), {
        usages: ['client auth', 'server auth'],
      }),
    )
    await ok(['certificate', 'approve', 'serving'])
    const failed = await waitFor(
      async () => {
        const csr = await kubectlJson(['get', 'csr', 'serving'], { kubeconfig: server.kubeconfig })
        return csr.status.conditions?.find((c: { type: string }) => c.type === 'Failed')
      },
      { timeoutMs: 30_000, what: 'the Failed condition' },
    )
    expect(failed).toMatchObject({
      status: 'True',
      reason: 'SignerValidationFailure',
      message: 'invalid usage for client certificate: server auth',
    })
    expect(await ok(['get', 'csr', 'serving', '--no-headers'])).toMatch(/Approved,Failed$/)
  })

  it('validates the request and the signer name', async () => {
    const bad = JSON.parse(csrManifest('bad', 'not a request'))
    bad.spec.signerName = 'example'
    const res = await run(['create', '-f', '-'], undefined, JSON.stringify(bad))
    expect(res.code).not.toBe(0)
    expect(res.stderr).toContain(
      'spec.request: Invalid value: []byte{...}: PEM block type must be CERTIFICATE REQUEST',
    )
    expect(res.stderr).toContain(
      `spec.signerName: Invalid value: "example": must be a fully qualified domain and path of the form 'example.com/signer-name'`,
    )
  })

  it('does not accept an expired certificate from the cluster CA, nor one from another CA', async () => {
    const tls = join(server.stateDir, 'tls')
    const ca = await loadAuthority(
      readFileSync(join(tls, 'cert.pem'), 'utf8'),
      readFileSync(join(tls, 'key.pem'), 'utf8'),
    )
    const csr = parseCsrPem(request('expired', '/CN=jane/O=devs'))
    const day = 24 * 3600_000
    const expired = await issueCertificate(ca, {
      subject: csr.subject,
      publicKey: csr.publicKey,
      usages: ['client auth'],
      notBefore: Date.now() - 2 * day,
      notAfter: Date.now() - day,
    })
    const res = await run(
      ['auth', 'whoami'],
      certKubeconfig('expired', expired, readFileSync(file('expired.key'), 'utf8')),
    )
    expect(res.code).not.toBe(0)
    expect(res.stderr).toMatch(/Unauthorized|provide credentials/)

    openssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'foreign-ca.key',
      '-subj',
      '/CN=edgeplane',
      '-days',
      '1',
      '-out',
      'foreign-ca.crt',
    )
    openssl(
      'x509',
      '-req',
      '-in',
      'jane.csr',
      '-CA',
      'foreign-ca.crt',
      '-CAkey',
      'foreign-ca.key',
      '-days',
      '1',
      '-out',
      'foreign.crt',
    )
    const foreign = await run(
      ['auth', 'whoami'],
      certKubeconfig(
        'foreign',
        readFileSync(file('foreign.crt'), 'utf8'),
        readFileSync(file('jane.key'), 'utf8'),
      ),
    )
    expect(foreign.code).not.toBe(0)
    expect(foreign.stderr).toMatch(/Unauthorized|provide credentials/)
  })

  it('ignores identity headers a client sends itself', async () => {
    const res = await server.request('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      method: 'POST',
      token: undefined,
      headers: {
        'Content-Type': 'application/json',
        'x-edgeplane-client-cert': 'guess',
        'x-edgeplane-client-identity': Buffer.from(
          JSON.stringify({ user: 'admin', groups: ['system:masters'] }),
        ).toString('base64'),
      },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    })
    expect(res.status).toBe(401)
  })
})
