import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringify as yaml } from 'yaml'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startKubectl } from './helpers/kubectl-stream'
import { serviceAccount, type ServiceAccountCredential } from './helpers/service-account'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// Writes an attacker makes with a ServiceAccount token, played against the real launcher: each
// asserts the refusal, that nothing was stored or issued, and that the next ordinary request works.

const NS = 'tenant'
const rbac = 'rbac.authorization.k8s.io'
let server: TestServer
let patcher: ServiceAccountCredential
let mallory: ServiceAccountCredential
let files = ''

const admin = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })
const as = (who: ServiceAccountCredential, args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: who.kubeconfig, stdin })
const send = (
  who: ServiceAccountCredential,
  method: string,
  path: string,
  type: string,
  body: string,
) =>
  server.request(path, {
    method,
    token: who.token,
    headers: { 'Content-Type': type },
    body,
    timeoutMs: 30_000,
  })
const ok = async (res: Promise<{ code: number; stdout: string; stderr: string }>) => {
  const r = await res
  expect(r.stderr).toBe('')
  return r.stdout.trim()
}
const missing = async (args: string[]) =>
  expect((await admin(['get', ...args])).stderr).toMatch(/\(NotFound\)/)

beforeAll(async () => {
  server = await startServer()
  files = mkdtempSync(join(tmpdir(), 'edgeplane-repros-'))
  await ok(admin(['create', 'namespace', NS]))
  await ok(
    admin([
      'create',
      'secret',
      'generic',
      'topsecret',
      '-n',
      NS,
      '--from-literal=password=hunter2',
    ]),
  )
  patcher = await serviceAccount(server, NS, 'patcher')
  mallory = await serviceAccount(server, NS, 'mallory')
  await ok(
    admin([
      'create',
      'rolebinding',
      'mallory-edit',
      '--clusterrole=edit',
      `--serviceaccount=${NS}:mallory`,
      '-n',
      NS,
    ]),
  )
  await ok(
    admin([
      'create',
      'clusterrole',
      'csr-creator',
      '--verb=create,get',
      '--resource=certificatesigningrequests',
    ]),
  )
  await ok(
    admin([
      'create',
      'clusterrolebinding',
      'mallory-csr',
      '--clusterrole=csr-creator',
      `--serviceaccount=${NS}:mallory`,
    ]),
  )
})

afterAll(async () => {
  await server?.dispose()
  if (files) rmSync(files, { recursive: true, force: true })
})

describe('the RBAC escalation check holds while patches race', () => {
  const role = 'self-patcher'
  const harmless = { v: 'get', g: '', r: 'configmaps' }
  const wild = { v: '*', g: '*', r: '*' }
  const granted = [
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
    {
      apiGroups: [rbac],
      resources: ['clusterroles'],
      verbs: ['get', 'patch'],
      resourceNames: [role],
    },
  ]
  // rules[0]'s verb, group and resource replaced by the annotations' values.
  const copyAnnotations = ['verbs', 'apiGroups', 'resources'].flatMap((list, i) => [
    { op: 'remove', path: `/rules/0/${list}/0` },
    { op: 'copy', from: `/metadata/annotations/${'vgr'[i]}`, path: `/rules/0/${list}/0` },
  ])

  it('never stores `*` nor lets the patcher read a Secret, and its permitted patch still works', async () => {
    const manifest = {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: role, annotations: harmless },
      rules: granted,
    }
    await ok(admin(['create', '-f', '-'], JSON.stringify(manifest)))
    await ok(
      admin([
        'create',
        'clusterrolebinding',
        role,
        `--clusterrole=${role}`,
        `--serviceaccount=${NS}:patcher`,
      ]),
    )
    await waitFor(
      async () =>
        (await as(patcher, ['auth', 'can-i', 'patch', `clusterrole/${role}`])).stdout.trim() ===
        'yes',
      { what: 'the patcher bound to its role' },
    )

    // Every version the store holds, as an admin watching the role sees it.
    const watch = startKubectl(
      [
        'get',
        'clusterrole',
        role,
        '-w',
        '-o',
        'jsonpath={.metadata.resourceVersion}{" "}{.rules}{"\\n"}',
      ],
      { kubeconfig: server.kubeconfig, timeoutMs: 90_000 },
    )
    try {
      await waitFor(() => watch.stdout().includes('\n') || watch.done(), {
        what: 'the watch to list the role',
        timeoutMs: 20_000,
      })
      const path = `/apis/${rbac}/v1/clusterroles/${role}`
      const escalate = () =>
        send(patcher, 'PATCH', path, 'application/json-patch+json', JSON.stringify(copyAnnotations))
      const annotate = (values: object) =>
        send(
          patcher,
          'PATCH',
          path,
          'application/merge-patch+json',
          JSON.stringify({ metadata: { annotations: values } }),
        )
      const readSecret = () =>
        server.request(`/api/v1/namespaces/${NS}/secrets/topsecret`, {
          token: patcher.token,
          timeoutMs: 30_000,
        })
      const patches: { status: number; body: string }[] = []
      const reads: number[] = []
      const started = Date.now()
      for (let round = 0; round < 40 && Date.now() - started < 20_000; round++) {
        const [a, b, c, d, e, secret] = await Promise.all([
          escalate(),
          annotate(wild),
          escalate(),
          annotate(harmless),
          escalate(),
          readSecret(),
        ])
        patches.push(a!, b!, c!, d!, e!)
        reads.push(secret!.status)
      }
      const statuses = new Set(patches.map((p) => p.status))
      expect([...statuses].filter((s) => ![200, 403, 409].includes(s))).toEqual([])
      expect(patches.find((p) => p.status === 403)?.body).toContain(
        'is attempting to grant RBAC permissions not currently held',
      )
      expect(new Set(reads)).toEqual(new Set([403]))

      // The patcher's ordinary patch, then the watch has seen every version up to it.
      const after = await ok(
        as(patcher, [
          'patch',
          'clusterrole',
          role,
          '--type=merge',
          '-p',
          JSON.stringify({ metadata: { annotations: harmless, labels: { after: 'race' } } }),
          '-o',
          'jsonpath={.metadata.resourceVersion}',
        ]),
      )
      await waitFor(() => watch.stdout().includes(`${after} `), {
        what: 'the watch to reach the last patch',
        timeoutMs: 20_000,
      })
      const versions = watch.stdout().trim().split('\n')
      expect(versions.length).toBeGreaterThan(2)
      expect(versions.filter((v) => v.includes('"*"'))).toEqual([])
    } finally {
      await watch.stop()
    }
    const stored = await kubectlJson(['get', 'clusterrole', role], {
      kubeconfig: server.kubeconfig,
    })
    expect(stored.rules).toEqual(granted)
    expect((await as(patcher, ['get', 'secret', 'topsecret', '-n', NS])).stderr).toContain(
      `User "${patcher.username}" cannot get resource "secrets"`,
    )
    expect((await as(patcher, ['auth', 'can-i', '*', '*'])).stdout.trim()).toBe('no')
  })
})

describe('a pod once created, patched by a namespace editor', () => {
  const refusal =
    'The Pod "victim" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`'

  it('refuses every field but the image with 422, keeps the pod as stored, and takes `kubectl set image`', async () => {
    await ok(
      admin([
        'run',
        'victim',
        '-n',
        NS,
        '--image=busybox:1.36',
        '--command',
        '--',
        'sleep',
        '3600',
      ]),
    )
    const before = await kubectlJson(['get', 'pod', 'victim', '-n', NS], {
      kubeconfig: server.kubeconfig,
    })
    const patches: [object, string][] = [
      [
        { spec: { containers: [{ name: 'victim', command: ['sh', '-c', 'id'] }] } },
        'containers[0].command: ["sh","-c","id"]',
      ],
      [
        { spec: { containers: [{ name: 'victim', securityContext: { privileged: true } }] } },
        'containers[0].securityContext: {"privileged":true}',
      ],
      [{ spec: { hostNetwork: true } }, 'hostNetwork: true'],
      [{ spec: { nodeName: 'elsewhere' } }, 'nodeName: "elsewhere"'],
      [{ spec: { serviceAccountName: 'mallory' } }, 'serviceAccountName: "mallory"'],
    ]
    for (const [patch, field] of patches) {
      const res = await as(mallory, [
        'patch',
        'pod',
        'victim',
        '-n',
        NS,
        '-p',
        JSON.stringify(patch),
        '-v=6',
      ])
      expect(res.code, field).not.toBe(0)
      expect(res.stderr, field).toMatch(
        /PATCH https:\/\/\S+\/pods\/victim\S* 422 Unprocessable Entity/,
      )
      expect(res.stderr, field).toContain(refusal)
      expect(res.stderr, field).toContain(`+ \t${field}`)
    }
    const after = await kubectlJson(['get', 'pod', 'victim', '-n', NS], {
      kubeconfig: server.kubeconfig,
    })
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion)
    expect(after.spec).toEqual(before.spec)

    expect(
      await ok(as(mallory, ['set', 'image', 'pod/victim', 'victim=busybox:1.37', '-n', NS])),
    ).toBe('pod/victim image updated')
    const updated = await kubectlJson(['get', 'pod', 'victim', '-n', NS], {
      kubeconfig: server.kubeconfig,
    })
    expect(updated.spec.containers[0]).toMatchObject({
      image: 'busybox:1.37',
      command: ['sleep', '3600'],
    })
  })
})

describe('a CertificateSigningRequest for system:masters', () => {
  const csrs = '/apis/certificates.k8s.io/v1/certificatesigningrequests'
  const forbidden =
    'use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed'

  /** A CSR object for a new key and a PEM request for the subject, made with openssl. */
  function csr(name: string, subject: string): object {
    const openssl = (...args: string[]) =>
      execFileSync('openssl', args, { cwd: files, stdio: ['ignore', 'pipe', 'pipe'] })
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
    const request = readFileSync(join(files, `${name}.csr`)).toString('base64')
    return {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: { request, signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] },
    }
  }

  it('is refused from a YAML file, as a YAML body and as JSON, stores nothing, and an ordinary request is accepted', async () => {
    const masters = csr('masters', '/CN=mallory/O=system:masters')
    writeFileSync(join(files, 'csr.yaml'), yaml(masters))
    const created = await as(mallory, ['create', '-f', join(files, 'csr.yaml')])
    expect(created.code).not.toBe(0)
    expect(created.stderr).toContain(
      `certificatesigningrequests.certificates.k8s.io "masters" is forbidden: ${forbidden}`,
    )
    for (const [type, body] of [
      ['application/yaml', yaml(masters)],
      ['application/json', JSON.stringify(masters)],
    ]) {
      const res = await send(mallory, 'POST', csrs, type!, body!)
      expect([type, res.status]).toEqual([type, 403])
      expect(JSON.parse(res.body).message).toContain(forbidden)
    }
    await missing(['csr', 'masters'])

    writeFileSync(join(files, 'ordinary.yaml'), yaml(csr('ordinary', '/CN=mallory/O=devs')))
    expect(await ok(as(mallory, ['create', '-f', join(files, 'ordinary.yaml')]))).toBe(
      'certificatesigningrequest.certificates.k8s.io/ordinary created',
    )
    const stored = await kubectlJson(['get', 'csr', 'ordinary'], { kubeconfig: server.kubeconfig })
    expect(stored.spec.username).toBe(mallory.username)
  })
})

describe('a body nested thousands of levels deep', () => {
  const cms = `/api/v1/namespaces/${NS}/configmaps`
  const tooDeep = 'the document is nested too deeply'
  const deepJson = (name: string, levels: number) =>
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}}`
  const deepYaml = (name: string, levels: number) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\ndata: {a: ${'['.repeat(levels)}x${']'.repeat(levels)}}\n`

  it('is refused with 400 as JSON and as YAML, nothing is stored, and the next create works', async () => {
    for (const [name, type, body] of [
      ['deep-json', 'application/json', deepJson('deep-json', 4000)],
      ['deep-yaml', 'application/yaml', deepYaml('deep-yaml', 4000)],
    ]) {
      const res = await send(mallory, 'POST', cms, type!, body!)
      expect([name, res.status]).toEqual([name, 400])
      expect(JSON.parse(res.body)).toMatchObject({
        kind: 'Status',
        reason: 'BadRequest',
        message: expect.stringContaining(tooDeep),
      })
      await missing(['configmap', name!, '-n', NS])
    }
    expect(
      await ok(as(mallory, ['create', 'configmap', 'shallow', '-n', NS, '--from-literal=k=v'])),
    ).toBe('configmap/shallow created')
  })
})

describe('a TokenRequest with a bad duration', () => {
  const path = `/api/v1/namespaces/${NS}/serviceaccounts/mallory/token`
  const request = (expirationSeconds: unknown) =>
    JSON.stringify({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds },
    })

  it('is refused with the decoder error or a 422 naming the field, issues nothing, and `kubectl create token` still works', async () => {
    const word = await send(mallory, 'POST', path, 'application/json', request('abc'))
    expect(word.status).toBe(400)
    expect(JSON.parse(word.body)).toMatchObject({
      reason: 'BadRequest',
      message:
        'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64',
    })
    const short = await send(mallory, 'POST', path, 'application/json', request(599))
    expect(short.status).toBe(422)
    expect(JSON.parse(short.body)).toMatchObject({
      reason: 'Invalid',
      details: { causes: [expect.objectContaining({ field: 'spec.expirationSeconds' })] },
    })
    expect(JSON.parse(short.body).message).toContain(
      'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    )
    for (const res of [word, short]) expect(res.body).not.toMatch(/"token"|eyJ/)

    const token = await ok(as(mallory, ['create', 'token', 'mallory', '-n', NS, '--duration=10m']))
    expect(token).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(
      await ok(
        as(mallory, [
          '--token',
          token,
          'auth',
          'whoami',
          '-o',
          'jsonpath={.status.userInfo.username}',
        ]),
      ),
    ).toBe(mallory.username)
  })
})
