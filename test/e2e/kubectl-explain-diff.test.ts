import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson, type KubectlResult } from './helpers/kubectl'
import { deployment } from './helpers/manifests'
import { startServer, type TestServer } from './helpers/server'

// kubectl commands that read the published OpenAPI v3 schemas (explain) or use it to pick how to
// patch and validate (apply, diff, edit), against one server.
describe.concurrent('kubectl explain, diff, dry-run and edit', () => {
  let server: TestServer
  const run = (args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) =>
    kubectl(args, { kubeconfig: server.kubeconfig, ...opts })
  const ok = async (args: string[], stdin?: string): Promise<KubectlResult> => {
    const res = await run(args, { stdin })
    if (res.code !== 0)
      throw new Error(`kubectl ${args.join(' ')} exited ${res.code}: ${res.stderr}`)
    return res
  }
  const get = (kind: string, name: string) =>
    kubectlJson(['get', kind, name], { kubeconfig: server.kubeconfig })
  /** What users write to a Deployment; its controller may change status and its own annotations at any time. */
  const written = (o: any) => ({
    uid: o.metadata.uid,
    generation: o.metadata.generation,
    labels: o.metadata.labels,
    lastApplied: o.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'],
    spec: o.spec,
  })

  beforeAll(async () => {
    server = await startServer()
  })

  afterAll(async () => {
    await server?.dispose()
  })

  describe('explain', () => {
    it('explain deployment.spec.replicas prints the field type and description', async () => {
      const res = await ok(['explain', 'deployment.spec.replicas'])
      expect(res.stdout).toContain('GROUP:      apps')
      expect(res.stdout).toContain('KIND:       Deployment')
      expect(res.stdout).toContain('VERSION:    v1')
      expect(res.stdout).toContain('FIELD: replicas <integer>')
      expect(res.stdout.replace(/\s+/g, ' ')).toContain(
        'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
      )
    })

    it('explain pods.spec.containers lists the container fields', async () => {
      const res = await ok(['explain', 'pods.spec.containers'])
      expect(res.stdout).toContain('KIND:       Pod')
      expect(res.stdout).toContain('FIELD: containers <[]Container>')
      expect(res.stdout).toMatch(/^ {2}name\t<string> -required-$/m)
      expect(res.stdout).toMatch(/^ {2}image\t<string>$/m)
      expect(res.stdout).toMatch(/^ {2}env\t<\[\]EnvVar>$/m)
      expect(res.stdout).toMatch(/^ {2}resources\t<ResourceRequirements>$/m)
    })

    it('explain names the kinds of other groups and follows refs', async () => {
      const strategy = await ok(['explain', 'deploy.spec.strategy.rollingUpdate.maxSurge'])
      expect(strategy.stdout).toContain('FIELD: maxSurge <IntOrString>')
      const job = await ok(['explain', 'jobs.spec.template.spec.restartPolicy'])
      expect(job.stdout).toContain('GROUP:      batch')
      expect(job.stdout).toContain('FIELD: restartPolicy <string>')
      expect(job.stdout).toMatch(/ENUM:\n\s+Always\n\s+OnFailure\n\s+Never/)
      const missing = await run(['explain', 'deployment.spec.foo'])
      expect(missing.code).toBe(1)
      expect(missing.stderr).toContain('field "foo" does not exist')
    })
  })

  describe('validation still happens on the server', () => {
    it('apply with an unknown field reports it, and a valid manifest applies', async () => {
      const bad = await run(['apply', '-f', '-'], {
        stdin: JSON.stringify(deployment('strict', { spec: { foo: 'bar' } })),
      })
      expect(bad.code).toBe(1)
      expect(bad.stderr).toContain('strict decoding error: unknown field "spec.foo"')
      const good = await ok(['apply', '-f', '-'], JSON.stringify(deployment('strict')))
      expect(good.stdout).toBe('deployment.apps/strict created\n')
    })
  })

  describe('diff and server dry-run', () => {
    it('diff on a changed manifest exits 1, shows the change, and changes nothing', async () => {
      await ok(['apply', '-f', '-'], JSON.stringify(deployment('differ', { replicas: 2 })))
      const before = await get('deploy', 'differ')

      const same = await run(['diff', '-f', '-'], {
        stdin: JSON.stringify(deployment('differ', { replicas: 2 })),
      })
      expect(same).toMatchObject({ code: 0, stdout: '' })

      const changed = await run(['diff', '-f', '-'], {
        stdin: JSON.stringify(deployment('differ', { replicas: 5 })),
      })
      expect(changed.code, changed.stderr).toBe(1)
      expect(changed.stdout).toMatch(/^-\s+replicas: 2$/m)
      expect(changed.stdout).toMatch(/^\+\s+replicas: 5$/m)
      expect(written(await get('deploy', 'differ'))).toEqual(written(before))
    })

    it('diff of an object that does not exist shows it whole and creates nothing', async () => {
      const res = await run(['diff', '-f', '-'], {
        stdin: JSON.stringify(deployment('ghost', { replicas: 3 })),
      })
      expect(res.code, res.stderr).toBe(1)
      expect(res.stdout).toMatch(/^\+\s+replicas: 3$/m)
      const after = await run(['get', 'deploy', 'ghost'])
      expect(after.code).toBe(1)
      expect(after.stderr.trim()).toBe(
        'Error from server (NotFound): deployments.apps "ghost" not found',
      )
    })

    it('apply --dry-run=server reports the change and changes nothing', async () => {
      await ok(['apply', '-f', '-'], JSON.stringify(deployment('rehearsed', { replicas: 2 })))
      const before = await get('deploy', 'rehearsed')
      const res = await ok(
        ['apply', '--dry-run=server', '-f', '-'],
        JSON.stringify(deployment('rehearsed', { replicas: 7 })),
      )
      expect(res.stdout).toBe('deployment.apps/rehearsed configured (server dry run)\n')
      expect(written(await get('deploy', 'rehearsed'))).toEqual(written(before))

      const fresh = await ok(
        ['apply', '--dry-run=server', '-f', '-'],
        JSON.stringify(deployment('imagined')),
      )
      expect(fresh.stdout).toBe('deployment.apps/imagined created (server dry run)\n')
      expect((await run(['get', 'deploy', 'imagined'])).code).toBe(1)
    })
  })

  describe('edit', () => {
    it('edit with a scripted editor changes a field', async () => {
      await ok(['apply', '-f', '-'], JSON.stringify(deployment('edited', { replicas: 2 })))
      const res = await run(['edit', 'deployment/edited'], {
        env: { KUBE_EDITOR: "sed -i -e 's/^  replicas: 2$/  replicas: 4/'" },
      })
      expect(res, res.stderr).toMatchObject({ code: 0, stdout: 'deployment.apps/edited edited\n' })
      const live = await get('deploy', 'edited')
      expect(live.spec.replicas).toBe(4)
      expect(live.metadata.generation).toBe(2)
    })
  })
})
