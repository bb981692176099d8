import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl } from './helpers/kubectl'
import { configMap, deployment, type Manifest } from './helpers/manifests'
import { startServer, type TestServer } from './helpers/server'

// What a kubectl user sees when the server refuses a request: the message, a non-zero exit, and
// nothing stored. Each test uses names of its own, so they run side by side.
describe.concurrent('kubectl errors', () => {
  let server: TestServer
  let scratch: string
  const run = (args: string[], stdin?: string) =>
    kubectl(args, { kubeconfig: server.kubeconfig, stdin })

  /** The object is not stored: kubectl get answers NotFound. */
  const expectNotStored = async (resource: string, name: string, shown: string) => {
    const res = await run(['get', resource, name])
    expect(res.code).toBe(1)
    expect(res.stderr.trim()).toBe(`Error from server (NotFound): ${shown} "${name}" not found`)
  }

  /** Both `apply -f` and `create -f` are refused with the same error lines. */
  const expectRefused = async (manifest: Manifest, lines: string[]): Promise<void> => {
    const results = await Promise.all([
      run(['apply', '-f', '-'], JSON.stringify(manifest)),
      run(['create', '-f', '-'], JSON.stringify(manifest)),
    ])
    for (const res of results) {
      expect(res.code).toBe(1)
      expect(res.stdout).toBe('')
      expect(res.stderr.trim().split('\n')).toEqual(lines)
    }
  }

  beforeAll(async () => {
    ;[server, scratch] = await Promise.all([
      startServer(),
      mkdtemp(join(tmpdir(), 'edgeplane-errors-test-')),
    ])
  })

  afterAll(async () => {
    await server?.dispose()
    if (scratch) await rm(scratch, { recursive: true, force: true })
  })

  describe('invalid manifests', () => {
    it('a name that is not a DNS subdomain is Invalid on metadata.name', async () => {
      await expectRefused(deployment('Bad_Name'), [
        `The Deployment "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ])
      // A name kubectl can send in a URL, so the lookup reaches the server.
      await expectNotStored('deploy', 'Bad_Name', 'deployments.apps')
    })

    it('a Deployment whose selector does not match its template labels is Invalid', async () => {
      await expectRefused(
        deployment('mismatch', { labels: { app: 'mismatch' }, templateLabels: { app: 'other' } }),
        [
          'The Deployment "mismatch" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
        ],
      )
      await expectNotStored('deploy', 'mismatch', 'deployments.apps')
    })

    it('a container without an image is Invalid', async () => {
      await expectRefused(deployment('noimage', { containers: [{ name: 'c' }] }), [
        'The Deployment "noimage" is invalid: spec.template.spec.containers[0].image: Required value',
      ])
      await expectNotStored('deploy', 'noimage', 'deployments.apps')
    })

    it('several problems are listed one per line', async () => {
      const manifest = deployment('multi', {
        templateLabels: { app: 'other' },
        containers: [{ name: 'c' }],
      })
      await expectRefused(manifest, [
        'The Deployment "multi" is invalid: ',
        '* spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`',
        '* spec.template.spec.containers[0].image: Required value',
      ])
      await expectNotStored('deploy', 'multi', 'deployments.apps')
    })

    it('an unknown field is rejected by strict field validation, which kubectl asks for by default', async () => {
      await expectRefused(deployment('unknown', { spec: { foo: 'bar' } }), [
        'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo"',
      ])
      await expectNotStored('deploy', 'unknown', 'deployments.apps')

      // Unknown fields nested in lists are named by their path too.
      const nested = deployment('nested', {
        containers: [{ name: 'c', image: 'nginx', imagePolicy: 'Always' }],
      })
      const res = await run(['apply', '-f', '-'], JSON.stringify(nested))
      expect(res.code).toBe(1)
      expect(res.stderr).toContain(
        'strict decoding error: unknown field "spec.template.spec.containers[0].imagePolicy"',
      )
      await expectNotStored('deploy', 'nested', 'deployments.apps')
    })

    it('--validate=false drops the unknown field with nothing but success', async () => {
      const res = await run(
        ['apply', '--validate=false', '-f', '-'],
        JSON.stringify(deployment('lenient', { spec: { foo: 'bar' } })),
      )
      expect(res).toEqual({ code: 0, stdout: 'deployment.apps/lenient created\n', stderr: '' })
      const stored = JSON.parse((await run(['get', 'deploy', 'lenient', '-o', 'json'])).stdout)
      expect(stored.spec.foo).toBeUndefined()
    })

    it('a YAML 1.1 `name: Y` (sent as a bool) is refused on create and on apply over a good object, which stays editable', async () => {
      const manifest = (envName: string) =>
        [
          'apiVersion: apps/v1',
          'kind: Deployment',
          'metadata: {name: ap}',
          'spec:',
          '  selector: {matchLabels: {app: ap}}',
          '  template:',
          '    metadata: {labels: {app: ap}}',
          '    spec:',
          '      containers:',
          '      - name: a',
          '        image: nginx:1',
          `        env: [{name: EX, value: "1"}, {name: ${envName}, value: "2"}]`,
        ].join('\n')
      const typeError =
        'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal bool into Go struct field EnvVar.spec.template.spec.containers.env.name of type string'
      const created = await run(['apply', '-f', '-'], manifest('Y'))
      expect(created.code).toBe(1)
      expect(created.stderr.trim()).toBe(
        `Error from server (BadRequest): error when creating "STDIN": ${typeError}`,
      )
      await expectNotStored('deploy', 'ap', 'deployments.apps')

      expect((await run(['apply', '-f', '-'], manifest('"Y"'))).code).toBe(0)
      expect(await run(['set', 'image', 'deploy/ap', 'a=nginx:2'])).toEqual({
        code: 0,
        stdout: 'deployment.apps/ap image updated\n',
        stderr: '',
      })
      const patched = await run(['apply', '-f', '-'], manifest('Y'))
      expect(patched.code).toBe(1)
      expect(patched.stderr.trim()).toContain(`error when patching "STDIN": ${typeError}`)
      const stored = JSON.parse((await run(['get', 'deploy', 'ap', '-o', 'json'])).stdout)
      expect(stored.spec.template.spec.containers[0]).toMatchObject({
        image: 'nginx:2',
        env: [
          { name: 'EX', value: '1' },
          { name: 'Y', value: '2' },
        ],
      })
    })

    it('an invalid update leaves the stored object as it was', async () => {
      const applied = await run(['apply', '-f', '-'], JSON.stringify(deployment('steady')))
      expect(applied.code).toBe(0)
      // The spec as the user wrote it; status and the controller's annotations change on their own.
      const userPart = async () => {
        const d = JSON.parse((await run(['get', 'deploy', 'steady', '-o', 'json'])).stdout)
        return { spec: d.spec, generation: d.metadata.generation, labels: d.metadata.labels }
      }
      const before = await userPart()
      const res = await run([
        'patch',
        'deploy',
        'steady',
        '--type=json',
        '-p',
        '[{"op":"remove","path":"/spec/template/spec/containers/0/image"}]',
      ])
      expect(res.code).toBe(1)
      expect(res.stderr.trim()).toBe(
        'The Deployment "steady" is invalid: spec.template.spec.containers[0].image: Required value',
      )
      const selector = await run([
        'patch',
        'deploy',
        'steady',
        '--type=merge',
        '-p',
        '{"spec":{"selector":{"matchLabels":{"app":"new"}},"template":{"metadata":{"labels":{"app":"new"}}}}}',
      ])
      expect(selector.code).toBe(1)
      expect(selector.stderr).toContain('spec.selector: Invalid value')
      expect(selector.stderr).toContain('field is immutable')
      expect(await userPart()).toEqual(before)
    })
  })

  it('an object in a missing namespace is NotFound for the namespace', async () => {
    const res = await run(['apply', '-f', '-'], JSON.stringify(configMap('c', { namespace: 'x' })))
    expect(res.code).toBe(1)
    expect(res.stderr.trim()).toBe(
      'Error from server (NotFound): error when creating "STDIN": namespaces "x" not found',
    )
    const viaFlag = await run(['create', '-n', 'x', '-f', '-'], JSON.stringify(configMap('c')))
    expect(viaFlag.code).toBe(1)
    expect(viaFlag.stderr.trim()).toBe(
      'Error from server (NotFound): error when creating "STDIN": namespaces "x" not found',
    )
    // kubectl looks the namespace up after a NotFound and names it.
    const lookup = await run(['get', 'cm', 'c', '-n', 'x'])
    expect(lookup.code).toBe(1)
    expect(lookup.stderr.trim()).toBe('Error from server (NotFound): namespaces "x" not found')
    const listed = await run(['get', 'cm', '-A', '-o', 'name'])
    expect(listed.stdout).not.toContain('configmap/c\n')
  })

  it('a namespace in the manifest that differs from -n is refused by kubectl', async () => {
    const res = await run(
      ['apply', '-n', 'kube-system', '-f', '-'],
      JSON.stringify(configMap('c', { namespace: 'default' })),
    )
    expect(res.code).toBe(1)
    expect(res.stderr).toContain(
      'the namespace from the provided object "default" does not match the namespace "kube-system"',
    )
  })

  it('a kubeconfig with a wrong token is told to log in, on every path', async () => {
    const text = await readFile(server.kubeconfig, 'utf8')
    expect(text).toContain(server.token)
    const wrong = join(scratch, 'wrong-token')
    await writeFile(wrong, text.replace(server.token, `${server.token.slice(1)}x`))
    const res = await kubectl(['get', 'cm'], { kubeconfig: wrong })
    expect(res.code).toBe(1)
    expect(res.stdout).toBe('')
    expect(res.stderr.trim().split('\n').at(-1)).toBe(
      'error: You must be logged in to the server (the server has asked for the client to provide credentials)',
    )
    // A wrong token is refused even where anonymous requests are served, as upstream does: it is
    // never taken for anonymous.
    const version = await kubectl(['version'], { kubeconfig: wrong })
    expect(version.code).toBe(1)
    expect(version.stdout).not.toContain('Server Version')
    expect(version.stderr.trim().split('\n').at(-1)).toBe(
      'error: You must be logged in to the server (the server has asked for the client to provide credentials)',
    )
    // With no credentials at all (kubectl would prompt for them), /version stays public.
    expect((await server.request('/version', { token: undefined })).status).toBe(200)
    // The right token still works.
    expect((await run(['get', 'cm'])).code).toBe(0)
  })

  it('an unknown resource type is reported by kubectl', async () => {
    const res = await run(['get', 'widgets'])
    expect(res.code).toBe(1)
    expect(res.stderr.trim()).toBe(`error: the server doesn't have a resource type "widgets"`)
  })
})
