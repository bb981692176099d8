import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { prepareCsrUpdate, stampRequester } from '../../../../src/apis/certificates/csr-object'
import { validateCsr, validateCsrUpdate } from '../../../../src/apis/certificates/csr-validation'
import {
  backdateMs,
  certificateSigningRequests,
  reconcileCsr,
} from '../../../../src/controllers/csr-signing/reconcile'
import type { Cache } from '../../../../src/controllers/runtime/types'

const dir = mkdtempSync(join(tmpdir(), 'csr-'))
function requestPem(subject: string): string {
  execFileSync(
    'openssl',
    [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      join(dir, 'k.pem'),
      '-subj',
      subject,
      '-out',
      join(dir, 'r.pem'),
    ],
    { stdio: 'ignore' },
  )
  return readFileSync(join(dir, 'r.pem'), 'utf8')
}

function csr(
  subject = '/CN=jane/O=devs',
  spec: Record<string, unknown> = {},
  status: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'jane', resourceVersion: '7' },
    spec: {
      request: btoa(requestPem(subject)),
      signerName: 'kubernetes.io/kube-apiserver-client',
      usages: ['client auth'],
      ...spec,
    },
    status,
  }
}

const cacheOf = (o: KubeObject): Cache => ({
  get: (_r, _ns, name) => (name === o.metadata.name ? o : undefined),
  list: () => [o],
})
const approved = { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove' }] }
const settings = { maxDurationSeconds: 86400 }

describe('the kube-apiserver-client signer', () => {
  it('issues an approved request for expirationSeconds, backdated, capped by the signing duration', () => {
    const now = Date.UTC(2030, 0, 1)
    const short = reconcileCsr(
      'jane',
      cacheOf(csr(undefined, { expirationSeconds: 3600 }, approved)),
      now,
      settings,
    ).actions
    expect(short).toEqual([
      expect.objectContaining({
        type: 'issueCertificate',
        resource: certificateSigningRequests,
        notBefore: now - backdateMs,
        notAfter: now + 3600_000,
      }),
    ])
    const long = reconcileCsr(
      'jane',
      cacheOf(csr(undefined, { expirationSeconds: 10 * 86400 }, approved)),
      now,
      settings,
    ).actions
    expect(long).toEqual([expect.objectContaining({ notAfter: now + 86400_000 })])
  })

  it('leaves pending, denied, failed, issued and other signers’ requests alone', () => {
    const now = Date.now()
    for (const o of [
      csr(),
      csr(undefined, {}, { conditions: [{ type: 'Denied', status: 'True' }] }),
      csr(
        undefined,
        {},
        { conditions: [...approved.conditions, { type: 'Failed', status: 'True' }] },
      ),
      csr(undefined, {}, { ...approved, certificate: 'eA==' }),
      csr(undefined, { signerName: 'example.com/other' }, approved),
    ]) {
      expect(reconcileCsr('jane', cacheOf(o), now, settings).actions).toEqual([])
    }
  })

  it('fails requests for server usages, without client auth, or for system:masters', () => {
    const failure = (o: KubeObject) => {
      const [a] = reconcileCsr('jane', cacheOf(o), Date.now(), settings).actions
      expect(a?.type).toBe('updateStatus')
      const conditions = (
        (a as { object: KubeObject }).object.status as {
          conditions: { type: string; reason: string; message: string }[]
        }
      ).conditions
      return conditions.find((c) => c.type === 'Failed')
    }
    expect(
      failure(csr(undefined, { usages: ['client auth', 'server auth'] }, approved)),
    ).toMatchObject({
      reason: 'SignerValidationFailure',
      message: 'invalid usage for client certificate: server auth',
    })
    expect(failure(csr(undefined, { usages: ['digital signature'] }, approved))?.message).toBe(
      'missing required usage for client certificate: client auth',
    )
    expect(failure(csr('/CN=root/O=system:masters', {}, approved))?.message).toBe(
      'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    )
  })
})

describe('CertificateSigningRequest writes', () => {
  it('records the requester over whatever the client sent', () => {
    const o = csr(undefined, { username: 'someone-else', groups: ['system:masters'] })
    stampRequester(o, { username: 'jane', uid: 'u1', groups: ['devs', 'system:authenticated'] })
    expect(o.spec).toMatchObject({
      username: 'jane',
      uid: 'u1',
      groups: ['devs', 'system:authenticated'],
    })
  })

  it('keeps spec on every update, approval conditions through status, and only conditions through approval', () => {
    const old = csr(undefined, {}, approved)
    const changedSpec = prepareCsrUpdate(
      old,
      { ...old, spec: { ...(old.spec as object), signerName: 'example.com/x' } },
      undefined,
    )
    expect(changedSpec.spec).toEqual(old.spec)
    const viaStatus = prepareCsrUpdate(
      old,
      { ...old, status: { conditions: [{ type: 'Denied', status: 'True' }], certificate: 'eA==' } },
      'status',
    )
    expect(
      (viaStatus.status as { conditions: { type: string }[] }).conditions.map((c) => c.type),
    ).toEqual(['Approved'])
    expect((viaStatus.status as { certificate: string }).certificate).toBe('eA==')
    const viaApproval = prepareCsrUpdate(
      csr(),
      { ...old, status: { conditions: [{ type: 'Denied', status: 'True' }], certificate: 'eA==' } },
      'approval',
    )
    expect(viaApproval.status).toEqual({
      conditions: [
        expect.objectContaining({
          type: 'Denied',
          lastUpdateTime: expect.any(String),
          lastTransitionTime: expect.any(String),
        }),
      ],
    })
  })

  it('validates as upstream', () => {
    const messages = (o: KubeObject) => validateCsr(o).map((c) => `${c.field}: ${c.message}`)
    expect(messages(csr())).toEqual([])
    expect(
      messages(
        csr(undefined, {
          request: btoa('nope'),
          signerName: 'kubernetes.io/legacy-unknown',
          expirationSeconds: 60,
          usages: [],
        }),
      ),
    ).toEqual([
      'spec.request: PEM block type must be CERTIFICATE REQUEST',
      'spec.signerName: the legacy signerName is not allowed via this API version',
      'spec.expirationSeconds: may not specify a duration less than 600 seconds (10 minutes)',
      'spec.usages: ',
    ])
    expect(
      messages(
        csr(
          undefined,
          {},
          {
            conditions: [
              { type: 'Approved', status: 'True' },
              { type: 'Denied', status: 'False' },
            ],
          },
        ),
      ),
    ).toEqual([
      'status.conditions[1].status: supported values: "True"',
      'status.conditions: Approved and Denied conditions are mutually exclusive',
    ])
    const issued = csr(undefined, {}, { ...approved, certificate: 'eA==' })
    expect(
      validateCsrUpdate(issued, csr(undefined, {}, { certificate: 'eQ==' })).map((c) => c.message),
    ).toEqual([
      'updates may not modify existing certificate content',
      'updates may not remove a condition of type "Approved"',
    ])
  })
})
