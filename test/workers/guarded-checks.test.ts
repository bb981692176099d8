import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:test'
import type { KubeObject } from '../../src/apimachinery/types'
import type { UserInfo } from '../../src/apimachinery/user-info'
import { findResource } from '../../src/apis/registry'
import { storeFor } from '../../src/store-client/stores'
import { admittedStore } from '../../src/admission/webhooks/admitted-store'
import { globalDefaultGuard } from '../../src/admission/priority-class'
import { paramsGuard } from '../../src/admission/policy-params'
import { csrGuard } from '../../src/admission/certificate-signing'
import { certificateRequest, derName, selfSignedCa } from '../fixtures/self-signed-ca'
import { api } from './helpers'
import { landed, racedGuard } from './write-race'

// Each check that refuses what a write would store judges the exact object stored: a write whose
// object changes between its check and its write (a JSON patch `copy` whose source flips, an
// apply whose object is replaced) is checked again from the newer version, never stored unchecked.
const userOf = (name: string): UserInfo => ({ username: name, groups: ['system:authenticated'] })
const rbac = 'rbac.authorization.k8s.io'

async function grant(user: string, rules: object[]): Promise<void> {
  const role = { apiVersion: `${rbac}/v1`, kind: 'ClusterRole', metadata: { name: user }, rules }
  expect((await api('POST', `/apis/${rbac}/v1/clusterroles`, role)).status).toBe(201)
  const binding = {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: user },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: user },
    subjects: [{ apiGroup: rbac, kind: 'User', name: user }],
  }
  expect((await api('POST', `/apis/${rbac}/v1/clusterrolebindings`, binding)).status).toBe(201)
}

describe('the global default PriorityClass check is atomic with the write', () => {
  const PCS = '/apis/scheduling.k8s.io/v1/priorityclasses'
  const def = findResource('scheduling.k8s.io', 'v1', 'priorityclasses')!
  const target = (name: string) => ({ def, name })
  const pc = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value: 10,
    ...extra,
  })
  const defaults = async () =>
    (await api('GET', PCS)).json.items
      .filter((c: { globalDefault?: boolean }) => c.globalDefault === true)
      .map((c: KubeObject) => c.metadata.name)
  const user = userOf('pc-writer')

  it('refuses a patch that copies a value flipped to true into globalDefault after its check', async () => {
    expect((await api('POST', PCS, pc('race-default', { globalDefault: true }))).status).toBe(201)
    const owner = (await api('GET', '/api/v1/namespaces/default')).json
    const ownerReferences = [
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        name: 'default',
        uid: owner.metadata.uid,
        controller: false,
      },
    ]
    expect(
      (
        await api(
          'POST',
          PCS,
          pc('race-owned', { metadata: { name: 'race-owned', ownerReferences } }),
        )
      ).status,
    ).toBe(201)
    const copy = [
      { op: 'copy', from: '/metadata/ownerReferences/0/controller', path: '/globalDefault' },
    ]
    const flip = [{ op: 'replace', path: '/metadata/ownerReferences/0/controller', value: true }]
    const guard = racedGuard(globalDefaultGuard(env, def), () =>
      landed(storeFor(env, def).patch(target('race-owned'), 'json', flip, undefined, {})),
    )
    const res = await admittedStore(env, def, user, guard).patch(
      target('race-owned'),
      'json',
      copy,
      undefined,
      { fieldManager: 'kubectl-patch' },
    )
    expect(!res.ok && res.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'priorityclasses.scheduling.k8s.io "race-owned" is forbidden: PriorityClass race-default is already marked as default. Only one default can exist',
    })
    const stored = (await api('GET', `${PCS}/race-owned`)).json
    expect(stored.metadata.ownerReferences[0].controller).toBe(true)
    expect(stored.globalDefault).not.toBe(true)
    expect(await defaults()).toEqual(['race-default'])
    await landed(storeFor(env, def).delete(target('race-default'), {}))
  })

  it('judges an apply checked as an update again as a create when its object is replaced in between', async () => {
    expect((await api('POST', PCS, pc('race-applied', { globalDefault: true }))).status).toBe(201)
    // Applying the default again is an update of the default itself; then it is deleted and another becomes the default.
    const replaced = async () => {
      await landed(storeFor(env, def).delete(target('race-applied'), {}))
      await landed(
        storeFor(env, def).create(
          target('race-usurper'),
          pc('race-usurper', { globalDefault: true }) as KubeObject,
          {},
        ),
      )
    }
    const guard = racedGuard(globalDefaultGuard(env, def), replaced)
    const res = await admittedStore(env, def, user, guard).patch(
      target('race-applied'),
      'apply',
      pc('race-applied', { globalDefault: true }),
      undefined,
      { fieldManager: 'kubectl' },
    )
    expect(!res.ok && res.status).toMatchObject({
      code: 403,
      message:
        'priorityclasses.scheduling.k8s.io "race-applied" is forbidden: PriorityClass race-usurper is already marked as default. Only one default can exist',
    })
    expect((await api('GET', `${PCS}/race-applied`)).status).toBe(404)
    expect(await defaults()).toEqual(['race-usurper'])
    await landed(storeFor(env, def).delete(target('race-usurper'), {}))
  })
})

describe('the param check of ValidatingAdmissionPolicyBindings is atomic with the write', () => {
  const group = '/apis/admissionregistration.k8s.io/v1'
  const def = findResource(
    'admissionregistration.k8s.io',
    'v1',
    'validatingadmissionpolicybindings',
  )!
  const target = { def, name: 'race-binding.example.com' }

  it('refuses a patch that copies a paramRef name flipped to one the user may not get after its check', async () => {
    await grant('binding-writer', [
      { apiGroups: ['admissionregistration.k8s.io'], resources: ['*'], verbs: ['*'] },
      {
        apiGroups: [''],
        resources: ['configmaps'],
        verbs: ['get'],
        resourceNames: ['allowed-a', 'allowed-b'],
      },
    ])
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'race-policy.example.com' },
      spec: {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ['example.com'],
              apiVersions: ['v1'],
              operations: ['CREATE'],
              resources: ['widgets'],
            },
          ],
        },
        validations: [{ expression: 'true' }],
      },
    }
    expect((await api('POST', `${group}/validatingadmissionpolicies`, policy)).status).toBe(201)
    const binding = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: target.name, annotations: { param: 'allowed-b' } },
      spec: {
        policyName: 'race-policy.example.com',
        validationActions: ['Deny'],
        paramRef: { name: 'allowed-a', namespace: 'default', parameterNotFoundAction: 'Allow' },
      },
    }
    expect((await api('POST', `${group}/validatingadmissionpolicybindings`, binding)).status).toBe(
      201,
    )
    const user = userOf('binding-writer')
    const copy = [{ op: 'copy', from: '/metadata/annotations/param', path: '/spec/paramRef/name' }]
    const flip = { metadata: { annotations: { param: 'forbidden' } } }
    const guard = racedGuard(paramsGuard(env, user, def)!, () =>
      landed(storeFor(env, def).patch(target, 'merge', flip, undefined, {})),
    )
    const res = await admittedStore(env, def, user, guard).patch(target, 'json', copy, undefined, {
      fieldManager: 'kubectl-patch',
    })
    expect(!res.ok && res.status).toMatchObject({ code: 422, reason: 'Invalid' })
    expect(!res.ok && res.status.message).toContain(
      'does not have "get" permission on the object referenced by paramRef',
    )
    const stored = (await api('GET', `${group}/validatingadmissionpolicybindings/${target.name}`))
      .json
    expect(stored.metadata.annotations.param).toBe('forbidden')
    expect(stored.spec.paramRef.name).toBe('allowed-a')
    // From a version that passes, the same patch is made.
    await landed(
      storeFor(env, def).patch(
        target,
        'merge',
        { metadata: { annotations: { param: 'allowed-b' } } },
        undefined,
        {},
      ),
    )
    const made = await admittedStore(env, def, user, paramsGuard(env, user, def)).patch(
      target,
      'json',
      copy,
      undefined,
      { fieldManager: 'kubectl-patch' },
    )
    expect(made.ok && JSON.parse(made.value.object).spec.paramRef.name).toBe('allowed-b')
  })
})

describe('the CertificateSigningRequest signer check is atomic with the write', () => {
  const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests'
  const def = findResource('certificates.k8s.io', 'v1', 'certificatesigningrequests')!
  const target = { def, name: 'race-sign' }

  it('refuses a status patch that copies a certificate into status.certificate after its check saw none', async () => {
    const request = await certificateRequest(derName(['2.5.4.10', 'devs'], ['2.5.4.3', 'jane']))
    const csr = {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: target.name, annotations: { issued: '' } },
      spec: { request: btoa(request), signerName: 'example.com/race', usages: ['client auth'] },
    }
    expect((await api('POST', csrs, csr)).status).toBe(201)
    const { cert } = await selfSignedCa(
      derName(['2.5.4.3', 'race-ca']),
      Date.now() - 60_000,
      Date.now() + 3_600_000,
    )
    // A user who may write the status but not sign: copying an empty value changes no certificate.
    const user = userOf('status-writer')
    const copy = [{ op: 'copy', from: '/metadata/annotations/issued', path: '/status/certificate' }]
    const flip = { metadata: { annotations: { issued: btoa(cert) } } }
    const guard = racedGuard(csrGuard(env, user, 'status'), () =>
      landed(storeFor(env, def).patch(target, 'merge', flip, undefined, {})),
    )
    const res = await admittedStore(env, def, user, guard).patch(target, 'json', copy, 'status', {
      fieldManager: 'kubectl-patch',
    })
    expect(!res.ok && res.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: `certificatesigningrequests.certificates.k8s.io "race-sign" is forbidden: user not permitted to sign requests with signerName "example.com/race"`,
    })
    const stored = (await api('GET', `${csrs}/${target.name}`)).json
    expect(stored.metadata.annotations.issued).toBe(btoa(cert))
    expect(stored.status?.certificate ?? '').toBe('')
  })
})
