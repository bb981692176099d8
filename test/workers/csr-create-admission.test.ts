import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { certificateRequest, derName } from '../fixtures/self-signed-ca'
import { pemBlocks, toPem } from '../../src/apimachinery/x509/pem'
import { api } from './helpers'

// A CertificateSigningRequest's create-time checks read the one decoded body, whatever it was
// sent as: JSON, or YAML as kubectl's raw requests and other clients send it.
const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests'
const O = '2.5.4.10'
const CN = '2.5.4.3'

const csr = (name: string, pem: string) => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: {
    request: btoa(pem),
    signerName: 'kubernetes.io/kube-apiserver-client',
    usages: ['client auth'],
  },
})

/** The same request with its signature's last byte changed: well formed, but not signed by its key. */
function forged(pem: string): string {
  const der = pemBlocks(pem)[0]!.der.slice()
  der[der.length - 1] ^= 1
  return toPem('CERTIFICATE REQUEST', der)
}

const encodings = [
  ['JSON', 'application/json', (o: object) => JSON.stringify(o)],
  ['YAML', 'application/yaml', (o: object) => stringify(o)],
] as const

describe('CertificateSigningRequest create-time checks', () => {
  it.each(encodings)(
    'refuse a system:masters client certificate request sent as %s, and store nothing',
    async (label, type, encode) => {
      const name = `masters-${label.toLowerCase()}`
      const res = await api(
        'POST',
        csrs,
        encode(
          csr(name, await certificateRequest(derName([O, 'system:masters'], [CN, 'mallory']))),
        ),
        type,
      )
      expect(res.status).toBe(403)
      expect(res.json).toMatchObject({
        reason: 'Forbidden',
        message: `certificatesigningrequests.certificates.k8s.io "${name}" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed`,
      })
      expect((await api('GET', `${csrs}/${name}`)).status).toBe(404)
    },
  )

  it.each(encodings)(
    'refuse a request its key did not sign, sent as %s (422)',
    async (label, type, encode) => {
      const name = `forged-${label.toLowerCase()}`
      const res = await api(
        'POST',
        csrs,
        encode(csr(name, forged(await certificateRequest(derName([O, 'devs'], [CN, 'jane']))))),
        type,
      )
      expect(res.status).toBe(422)
      expect(res.json.details.causes[0].field).toBe('spec.request')
      expect((await api('GET', `${csrs}/${name}`)).status).toBe(404)
    },
  )

  it.each(encodings)('accept an ordinary request sent as %s', async (label, type, encode) => {
    const name = `ordinary-${label.toLowerCase()}`
    const res = await api(
      'POST',
      csrs,
      encode(csr(name, await certificateRequest(derName([O, 'devs'], [CN, 'jane'])))),
      type,
    )
    expect(res.status).toBe(201)
    expect(res.json.spec.username).toBeTruthy()
  })

  it('refuse a system:masters client certificate request created by server-side apply as a POST is, and store nothing', async () => {
    const name = 'masters-applied'
    const body = stringify(
      csr(name, await certificateRequest(derName([O, 'system:masters'], [CN, 'mallory']))),
    )
    const res = await api(
      'PATCH',
      `${csrs}/${name}?fieldManager=kubectl`,
      body,
      'application/apply-patch+yaml',
    )
    expect(res.status).toBe(403)
    expect(res.json).toMatchObject({
      reason: 'Forbidden',
      message: `certificatesigningrequests.certificates.k8s.io "${name}" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed`,
    })
    expect((await api('GET', `${csrs}/${name}`)).status).toBe(404)
  })

  it('refuse a request its key did not sign when server-side apply creates it (422), and create an ordinary one', async () => {
    const apply = (name: string, pem: string) =>
      api(
        'PATCH',
        `${csrs}/${name}?fieldManager=kubectl`,
        stringify(csr(name, pem)),
        'application/apply-patch+yaml',
      )
    const refused = await apply(
      'forged-applied',
      forged(await certificateRequest(derName([O, 'devs'], [CN, 'jane']))),
    )
    expect(refused.status).toBe(422)
    expect(refused.json.details.causes[0].field).toBe('spec.request')
    expect((await api('GET', `${csrs}/forged-applied`)).status).toBe(404)
    const created = await apply(
      'ordinary-applied',
      await certificateRequest(derName([O, 'devs'], [CN, 'jane'])),
    )
    expect(created.status).toBe(201)
    expect(created.json.spec.username).toBeTruthy()
  })

  it('answer a body that does not decode with 400, as the handler would', async () => {
    const res = await api('POST', csrs, 'spec: [unclosed', 'application/yaml')
    expect(res.status).toBe(400)
    expect(res.json.reason).toBe('BadRequest')
  })
})
