import { beforeAll, describe, expect, it } from 'vitest'
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import worker from '../../src/index'
import type { Env } from '../../src/env'
import {
  clientCertMarkHeader,
  clientIdentityHeader,
  encodeClientIdentity,
} from '../../src/apimachinery/client-identity'
import { parseCertificate } from '../../src/apimachinery/x509/authority'
import {
  nameFromDer,
  parseDistinguishedName,
  sameName,
} from '../../src/apimachinery/x509/distinguished-name'
import { pemBlocks } from '../../src/apimachinery/x509/pem'
import { controllerDefinition } from '../../src/controllers/registry'
import { ControllerRunner, defaultRunnerOptions } from '../../src/controllers/runtime/runner'
import { certificateRequest, derName, selfSignedCa } from '../fixtures/self-signed-ca'
import { api, token } from './helpers'

const DAY = 86_400_000
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** A time as Cloudflare's edge reports certNotBefore/certNotAfter (OpenSSL's `Dec  2 19:39:00 2026 GMT`). */
const edgeTime = (ms: number) => {
  const d = new Date(ms)
  const hms = d.toISOString().slice(11, 19)
  return `${months[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${hms} ${d.getUTCFullYear()} GMT`
}

// The cluster CA: C=US, O=Example, Inc., CN=edgeplane cluster CA. The edge prints names as
// OpenSSL's RFC 2253 form does: last RDN first, the comma in the organization escaped.
const clusterCaIssuer = 'CN=edgeplane cluster CA,O=Example\\, Inc.,C=US'
/** The cluster CA's subject key identifier as the edge reports certIssuerSKI: upper-case hex. */
let clusterCaKeyId = ''
const upperHex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()

/** request.cf.tlsClientAuth as the edge fills it for a certificate it verified: CN=jane, O=devs, O=qa, issued by the cluster CA. */
function verified(overrides: Record<string, string> = {}) {
  const now = Date.now()
  return {
    certPresented: '1',
    certVerified: 'SUCCESS',
    certRevoked: '0',
    certIssuerDN: clusterCaIssuer,
    certIssuerDNRFC2253: clusterCaIssuer,
    certIssuerDNLegacy: '/C=US/O=Example, Inc./CN=edgeplane cluster CA',
    certSubjectDN: 'CN=jane,O=qa,O=devs',
    certSubjectDNRFC2253: 'CN=jane,O=qa,O=devs',
    certSubjectDNLegacy: '/O=devs/O=qa/CN=jane',
    certSerial: '5E2F0A1B',
    certIssuerSerial: '',
    certSKI: '',
    certIssuerSKI: clusterCaKeyId,
    certFingerprintSHA1: '6b9109f323999e52259cda7373ff0b4d26bd232e',
    certFingerprintSHA256: 'acf77cf37b4156a2708e34c4eb755f9b5dbbe5ebb55adfec8f11493438d19e6a',
    certNotBefore: edgeTime(now - DAY),
    certNotAfter: edgeTime(now + 30 * DAY),
    ...overrides,
  }
}

/** No certificate: the placeholder the edge sends. */
const none = {
  ...Object.fromEntries(Object.keys(verified()).map((k) => [k, ''])),
  certPresented: '0',
  certVerified: 'NONE',
  certRevoked: '0',
}

let enabled: Env

/** A request as the edge hands it to the Worker: `cf.tlsClientAuth` set, and whatever headers the client sent. */
async function call(
  workerEnv: Env,
  method: string,
  path: string,
  tlsClientAuth: object,
  headers: Record<string, string> = {},
  body?: unknown,
) {
  const init = {
    method,
    headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
    cf: { tlsClientAuth },
  }
  const ctx = createExecutionContext()
  // The edge sets request.cf; a test builds the request the Worker receives with it.
  const req = new Request(
    `https://edgeplane.test${path}`,
    init as RequestInit,
  ) as unknown as Request<unknown, IncomingRequestCfProperties>
  const res = await worker.fetch(req, workerEnv, ctx)
  await waitOnExecutionContext(ctx)
  const text = await res.text()
  return { status: res.status, json: text.startsWith('{') ? JSON.parse(text) : text }
}

const whoami = (workerEnv: Env, tlsClientAuth: object, headers: Record<string, string> = {}) =>
  call(
    workerEnv,
    'POST',
    '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    tlsClientAuth,
    headers,
    { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  )

describe('client certificates verified at the edge (EDGEPLANE_CLOUDFLARE_MTLS)', () => {
  beforeAll(async () => {
    const ca = await selfSignedCa(
      derName(
        ['2.5.4.6', 'US'],
        ['2.5.4.10', 'Example, Inc.'],
        ['2.5.4.3', 'edgeplane cluster CA'],
      ),
      Date.now() - DAY,
      Date.now() + 365 * DAY,
    )
    enabled = {
      ...env,
      EDGEPLANE_CLOUDFLARE_MTLS: 'true',
      CLUSTER_CA_CERT: ca.cert,
      CLUSTER_CA_KEY: ca.key,
    }
    clusterCaKeyId = upperHex(ca.subjectKeyId)
  })

  it('takes a verified certificate of the cluster CA as its CN, in its O groups (kubectl auth whoami)', async () => {
    const who = await whoami(enabled, verified())
    expect([who.status, who.json.status?.userInfo]).toEqual([
      201,
      { username: 'jane', groups: ['devs', 'qa', 'system:authenticated'] },
    ])
  })

  it('issues, with the setting on, an approved request a certificate whose names the edge reports', async () => {
    const request = await certificateRequest(
      derName(['2.5.4.10', 'devs'], ['2.5.4.10', 'qa'], ['2.5.4.3', 'jane']),
    )
    const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests'
    const csr = {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'jane-edge' },
      spec: {
        request: btoa(request),
        signerName: 'kubernetes.io/kube-apiserver-client',
        usages: ['client auth'],
        expirationSeconds: 3600,
      },
    }
    expect((await api('POST', csrs, csr)).status).toBe(201)
    const stored = (await api('GET', `${csrs}/jane-edge`)).json
    stored.status = {
      conditions: [
        {
          type: 'Approved',
          status: 'True',
          reason: 'KubectlApprove',
          message: 'This CSR was approved by kubectl certificate approve.',
        },
      ],
    }
    expect((await api('PUT', `${csrs}/jane-edge/approval`, stored)).status).toBe(200)

    // With the setting off the signer does not run: nothing would accept its certificates.
    const off = { ...enabled, EDGEPLANE_CLOUDFLARE_MTLS: undefined }
    await new ControllerRunner(
      off,
      controllerDefinition('csr-signing', off),
      defaultRunnerOptions,
    ).pass()
    expect((await api('GET', `${csrs}/jane-edge`)).json.status.certificate).toBeUndefined()

    await new ControllerRunner(
      enabled,
      controllerDefinition('csr-signing', enabled),
      defaultRunnerOptions,
    ).pass()
    const pem = atob((await api('GET', `${csrs}/jane-edge`)).json.status.certificate)
    const cert = parseCertificate(pemBlocks(pem)[0]!.der)
    // The names the edge would report for it, in the RFC 2253 form the tests send.
    expect(sameName(nameFromDer(cert.issuer), parseDistinguishedName(clusterCaIssuer)!)).toBe(true)
    expect(
      sameName(nameFromDer(cert.subject), parseDistinguishedName('CN=jane,O=qa,O=devs')!),
    ).toBe(true)
    const who = await whoami(
      enabled,
      verified({ certNotBefore: edgeTime(cert.notBefore), certNotAfter: edgeTime(cert.notAfter) }),
    )
    expect(who.json.status?.userInfo).toEqual({
      username: 'jane',
      groups: ['devs', 'qa', 'system:authenticated'],
    })
  })

  it('authorizes the certificate’s user and groups with RBAC', async () => {
    const ns = 'edge-mtls'
    await api('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
    })
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}`
    expect(
      (
        await api('POST', `${rbac}/roles`, {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name: 'cm-reader' },
          rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
        })
      ).status,
    ).toBe(201)
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'devs-read' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' }],
    }
    expect((await api('POST', `${rbac}/rolebindings`, binding)).status).toBe(201)

    const list = await call(enabled, 'GET', `/api/v1/namespaces/${ns}/configmaps`, verified())
    expect([list.status, list.json.kind]).toEqual([200, 'ConfigMapList'])
    const secrets = await call(enabled, 'GET', `/api/v1/namespaces/${ns}/secrets`, verified())
    expect([secrets.status, secrets.json.message]).toEqual([
      403,
      `secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "${ns}"`,
    ])
    // The same user outside the devs group is not granted what the group is.
    const notDevs = await call(
      enabled,
      'GET',
      `/api/v1/namespaces/${ns}/configmaps`,
      verified({ certSubjectDN: 'CN=jane,O=qa', certSubjectDNRFC2253: 'CN=jane,O=qa' }),
    )
    expect([notDevs.status, notDevs.json.message]).toEqual([
      403,
      `configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "${ns}"`,
    ])
  })

  it('refuses with 401 a certificate of another CA the zone trusts, even on public paths', async () => {
    for (const issuer of [
      'CN=edgeplane cluster CA',
      'C=US,O=Example\\, Inc.,CN=edgeplane cluster CA',
      'CN=Cloudflare Managed CA,O=Cloudflare\\, Inc.',
    ]) {
      const other = verified({ certIssuerDN: issuer, certIssuerDNRFC2253: issuer })
      expect((await whoami(enabled, other)).status, issuer).toBe(401)
      expect((await call(enabled, 'GET', '/version', other)).status, issuer).toBe(401)
    }
  })

  it('tells the cluster CA from another CA with the same subject by its key identifier', async () => {
    // Both forms Cloudflare documents: bare upper-case hex, and colon-separated pairs.
    const colons = clusterCaKeyId.match(/../g)!.join(':')
    for (const ski of [clusterCaKeyId, colons, colons.toLowerCase()])
      expect((await whoami(enabled, verified({ certIssuerSKI: ski }))).status, ski).toBe(201)
    const other = await selfSignedCa(
      derName(
        ['2.5.4.6', 'US'],
        ['2.5.4.10', 'Example, Inc.'],
        ['2.5.4.3', 'edgeplane cluster CA'],
      ),
      Date.now() - DAY,
      Date.now() + 365 * DAY,
    )
    for (const ski of [upperHex(other.subjectKeyId), '', 'not hex', clusterCaKeyId.slice(2)]) {
      const masters = verified({
        certIssuerSKI: ski,
        certSubjectDN: 'CN=mallory,O=system:masters',
        certSubjectDNRFC2253: 'CN=mallory,O=system:masters',
      })
      const res = await whoami(enabled, masters)
      expect([res.status, res.json.reason], ski).toEqual([401, 'Unauthorized'])
      expect((await call(enabled, 'GET', '/version', masters)).status, ski).toBe(401)
    }
  })

  it('refuses every certificate when the cluster CA carries no subjectKeyIdentifier', async () => {
    const bare = await selfSignedCa(
      derName(['2.5.4.3', 'edgeplane cluster CA without key id']),
      Date.now() - DAY,
      Date.now() + 365 * DAY,
      false,
    )
    const noKeyId = { ...enabled, CLUSTER_CA_CERT: bare.cert, CLUSTER_CA_KEY: bare.key }
    const auth = verified({
      certIssuerDNRFC2253: 'CN=edgeplane cluster CA without key id',
      certIssuerDN: 'CN=edgeplane cluster CA without key id',
      certIssuerSKI: '',
    })
    expect((await whoami(noKeyId, auth)).status).toBe(401)
    expect((await call(noKeyId, 'GET', '/version', auth)).status).toBe(401)
    // A token still authenticates.
    expect(
      (await whoami(noKeyId, auth, { Authorization: `Bearer ${token}` })).json.status?.userInfo
        ?.username,
    ).toBe('kubernetes-admin')
  })

  it('reads names only in their RFC 2253 form, refusing a certificate without it', async () => {
    for (const [why, auth] of Object.entries({
      'no RFC 2253 issuer': verified({ certIssuerDNRFC2253: '' }),
      'no RFC 2253 subject': verified({ certSubjectDNRFC2253: '' }),
      // An unescaped comma in a CN must never become an organization.
      'only the other subject form': verified({
        certSubjectDNRFC2253: '',
        certSubjectDN: 'CN=jane,O=system:masters',
      }),
    })) {
      const res = await whoami(enabled, auth)
      expect([res.status, res.json.reason], why).toEqual([401, 'Unauthorized'])
    }
    // The RFC 2253 form wins over the other when they differ.
    const escaped = await whoami(
      enabled,
      verified({
        certSubjectDN: 'CN=jane,O=system:masters',
        certSubjectDNRFC2253: 'CN=jane\\,O=system:masters',
      }),
    )
    expect(escaped.json.status?.userInfo).toEqual({
      username: 'jane,O=system:masters',
      groups: ['system:authenticated'],
    })
  })

  it('refuses with 401 a certificate the edge did not verify, a revoked one, and one outside its validity', async () => {
    const now = Date.now()
    const refused = {
      'self signed': verified({ certVerified: 'FAILED:self signed certificate' }),
      'expired at the edge': verified({ certVerified: 'FAILED:certificate has expired' }),
      revoked: verified({ certRevoked: '1' }),
      'expired since the handshake': verified({
        certNotBefore: edgeTime(now - 2 * DAY),
        certNotAfter: edgeTime(now - 60_000),
      }),
      'not yet valid': verified({ certNotBefore: edgeTime(now + DAY) }),
    }
    for (const [why, auth] of Object.entries(refused)) {
      const res = await whoami(enabled, auth)
      expect([res.status, res.json.reason], why).toEqual([401, 'Unauthorized'])
      expect((await call(enabled, 'GET', '/version', auth)).status, why).toBe(401)
    }
    // As kube-apiserver: a refused certificate leaves the request to a valid token.
    const withToken = await whoami(enabled, refused.revoked, { Authorization: `Bearer ${token}` })
    expect([withToken.status, withToken.json.status?.userInfo?.username]).toEqual([
      201,
      'kubernetes-admin',
    ])
  })

  it('takes a request without a certificate as before: anonymous on public paths, a token elsewhere', async () => {
    expect((await call(enabled, 'GET', '/version', none)).status).toBe(200)
    expect((await whoami(enabled, none)).status).toBe(401)
    expect(
      (await whoami(enabled, none, { Authorization: `Bearer ${token}` })).json.status.userInfo
        .username,
    ).toBe('kubernetes-admin')
  })

  it('ignores the certificate when the setting is off, or when no cluster CA is configured', async () => {
    // Off by default: the test Worker's own configuration leaves it unset.
    expect(env.EDGEPLANE_CLOUDFLARE_MTLS).toBeUndefined()
    for (const setting of [undefined, 'false', 'yes']) {
      const off = { ...enabled, EDGEPLANE_CLOUDFLARE_MTLS: setting }
      expect((await whoami(off, verified())).status, String(setting)).toBe(401)
      expect(
        (
          await call(
            off,
            'GET',
            '/version',
            verified({ certVerified: 'FAILED:self signed certificate' }),
          )
        ).status,
        String(setting),
      ).toBe(200)
    }
    const noCa = { ...enabled, CLUSTER_CA_CERT: undefined }
    expect((await whoami(noCa, verified())).status).toBe(401)
    expect((await call(noCa, 'GET', '/version', verified())).status).toBe(200)
  })

  it('never takes identity headers a client sends for a certificate user', async () => {
    const forged = {
      [clientCertMarkHeader]: 'guessed',
      [clientIdentityHeader]: encodeClientIdentity('admin', ['system:masters']),
    }
    expect((await whoami(enabled, none, forged)).status).toBe(401)
    const asJane = await whoami(enabled, verified(), forged)
    expect(asJane.json.status?.userInfo?.username).toBe('jane')
    expect((await whoami(env, none, forged)).status).toBe(401)
  })
})
