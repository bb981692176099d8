import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectlJson, kubectlOn } from './helpers/kubectl'
import { configMap, deployment, stream, type ContainerSpec } from './helpers/manifests'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

const conflictMessage = (name: string) =>
  `Operation cannot be fulfilled on deployments.apps "${name}": the object has been modified; please apply your changes to the latest version and try again`

// Every kubectl write path against one server. Groups work on objects of their own and run side
// by side; the steps on one object run in order.
describe.concurrent('kubectl writes', () => {
  let server: TestServer
  const { run, ok } = kubectlOn(() => server.kubeconfig)
  const get = (kind: string, name: string) =>
    kubectlJson(['get', kind, name], { kubeconfig: server.kubeconfig })
  /**
   * What users write to a Deployment. Its controller may update status (and so resourceVersion)
   * and its own `deployment.kubernetes.io/` annotations at any time, so "nothing changed" is
   * judged on the rest.
   */
  const written = (o: any) => ({
    uid: o.metadata.uid,
    generation: o.metadata.generation,
    labels: o.metadata.labels,
    annotations: Object.fromEntries(
      Object.entries(o.metadata.annotations ?? {}).filter(
        ([k]) => !k.startsWith('deployment.kubernetes.io/'),
      ),
    ),
    spec: o.spec,
  })
  const notFound = async (kind: string, name: string, shown = `${kind}s`) => {
    const res = await run(['get', kind, name])
    expect(res.code).toBe(1)
    expect(res.stderr.trim()).toBe(`Error from server (NotFound): ${shown} "${name}" not found`)
  }

  beforeAll(async () => {
    server = await startServer()
  })

  afterAll(async () => {
    await server?.dispose()
  })

  describe('create and apply', () => {
    it('create -f creates once, then reports AlreadyExists', async () => {
      const manifest = JSON.stringify(deployment('made', { replicas: 3 }))
      const first = await run(['create', '-f', '-'], manifest)
      expect(first).toEqual({ code: 0, stdout: 'deployment.apps/made created\n', stderr: '' })
      const live = await get('deploy', 'made')
      expect(live.spec.replicas).toBe(3)
      expect(live.metadata.generation).toBe(1)
      // create does not record a last-applied configuration.
      expect(
        live.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'],
      ).toBeUndefined()

      const again = await run(['create', '-f', '-'], manifest)
      expect(again.code).toBe(1)
      expect(again.stderr.trim()).toBe(
        'Error from server (AlreadyExists): error when creating "STDIN": deployments.apps "made" already exists',
      )
      expect(written(await get('deploy', 'made'))).toEqual(written(live))
    })

    it('apply -f creates, merges a removed container and a changed env var, then is unchanged', async () => {
      const v1Containers: ContainerSpec[] = [
        {
          name: 'nginx',
          image: 'nginx:1.27',
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
        },
        { name: 'sidecar', image: 'busybox:1.36' },
      ]
      const created = await run(
        ['apply', '-f', '-'],
        JSON.stringify(deployment('web', { containers: v1Containers })),
      )
      expect(created).toEqual({ code: 0, stdout: 'deployment.apps/web created\n', stderr: '' })
      const v1 = await get('deploy', 'web')
      expect(v1.spec.template.spec.containers.map((c: ContainerSpec) => c.name)).toEqual([
        'nginx',
        'sidecar',
      ])
      expect(
        JSON.parse(v1.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).spec
          .template.spec.containers,
      ).toHaveLength(2)

      const v2Manifest = JSON.stringify(
        deployment('web', {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.27',
              env: [
                { name: 'A', value: '10' },
                { name: 'B', value: '2' },
              ],
            },
          ],
        }),
      )
      const configured = await run(['apply', '-f', '-'], v2Manifest)
      expect(configured).toEqual({
        code: 0,
        stdout: 'deployment.apps/web configured\n',
        stderr: '',
      })
      const v2 = await get('deploy', 'web')
      const containers = v2.spec.template.spec.containers as ContainerSpec[]
      expect(containers.map((c) => c.name)).toEqual(['nginx'])
      expect(containers[0]!.env).toEqual([
        { name: 'A', value: '10' },
        { name: 'B', value: '2' },
      ])
      expect(v2.metadata.uid).toBe(v1.metadata.uid)
      expect(v2.metadata.generation).toBe(2)

      const unchanged = await run(['apply', '-f', '-'], v2Manifest)
      expect(unchanged).toEqual({ code: 0, stdout: 'deployment.apps/web unchanged\n', stderr: '' })
      expect(written(await get('deploy', 'web'))).toEqual(written(v2))
    })

    it('apply -f keeps fields set by other writers and drops keys removed from the file', async () => {
      const manifest = (data: Record<string, string>) =>
        JSON.stringify(configMap('settings', { data }))
      await ok(['apply', '-f', '-'], manifest({ a: '1', b: '2' }))
      await ok(['patch', 'cm', 'settings', '--type=merge', '-p', '{"data":{"other":"x"}}'])
      expect((await run(['apply', '-f', '-'], manifest({ a: '1' }))).stdout).toBe(
        'configmap/settings configured\n',
      )
      const configured = await get('cm', 'settings')
      expect(configured.data).toEqual({ a: '1', other: 'x' })

      // No controller writes ConfigMaps: a write that changes nothing must keep the resourceVersion.
      expect((await run(['apply', '-f', '-'], manifest({ a: '1' }))).stdout).toBe(
        'configmap/settings unchanged\n',
      )
      expect((await ok(['patch', 'cm', 'settings', '-p', '{"data":{"a":"1"}}'])).stdout).toBe(
        'configmap/settings patched (no change)\n',
      )
      expect((await get('cm', 'settings')).metadata.resourceVersion).toBe(
        configured.metadata.resourceVersion,
      )
    })

    it('patch --subresource=status changes only the status', async () => {
      // A Service: no controller here writes its status, so what is read back is this patch's doing.
      const svc = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'front', labels: { app: 'front' } },
        spec: { selector: { app: 'front' }, ports: [{ port: 80 }] },
      }
      await ok(['apply', '-f', '-'], JSON.stringify(svc))
      const before = await get('svc', 'front')
      const patch =
        '{"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.10"}]}},"spec":{"ports":[{"port":81}]},"metadata":{"labels":{"sneaky":"1"}}}'
      expect(
        (await ok(['patch', 'svc', 'front', '--subresource=status', '--type=merge', '-p', patch]))
          .stdout,
      ).toBe('service/front patched\n')
      const after = await get('svc', 'front')
      expect(after.status).toEqual({ loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } })
      expect(after.spec).toEqual(before.spec)
      expect(after.metadata.labels).toEqual({ app: 'front' })
      expect(after.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion)
      // Through the main resource, status is left alone.
      await ok([
        'patch',
        'svc',
        'front',
        '--type=merge',
        '-p',
        '{"status":{"loadBalancer":{}},"metadata":{"labels":{"main":"1"}}}',
      ])
      const main = await get('svc', 'front')
      expect(main.status).toEqual(after.status)
      expect(main.metadata.labels).toEqual({ app: 'front', main: '1' })
    })
  })

  describe.sequential('metadata and patches', () => {
    beforeAll(async () => {
      await ok(
        ['apply', '-f', '-'],
        stream(
          deployment('meta', {
            containers: [
              { name: 'nginx', image: 'nginx:1.27' },
              { name: 'sidecar', image: 'busybox:1.36' },
            ],
          }),
        ),
      )
    })

    it('label and annotate add, overwrite only with --overwrite, and remove with key-', async () => {
      expect((await ok(['label', 'deploy', 'meta', 'tier=frontend'])).stdout).toBe(
        'deployment.apps/meta labeled\n',
      )
      expect((await ok(['annotate', 'deploy', 'meta', 'team=blue'])).stdout).toBe(
        'deployment.apps/meta annotated\n',
      )
      let live = await get('deploy', 'meta')
      expect(live.metadata.labels).toEqual({ app: 'meta', tier: 'frontend' })
      expect(live.metadata.annotations.team).toBe('blue')

      const clash = await run(['label', 'deploy', 'meta', 'tier=backend'])
      expect(clash.code).toBe(1)
      expect(clash.stderr).toContain(
        "'tier' already has a value (frontend), and --overwrite is false",
      )
      await ok(['label', 'deploy', 'meta', 'tier=backend', '--overwrite'])
      expect((await get('deploy', 'meta')).metadata.labels.tier).toBe('backend')

      expect((await ok(['label', 'deploy', 'meta', 'tier-'])).stdout).toBe(
        'deployment.apps/meta unlabeled\n',
      )
      expect((await ok(['annotate', 'deploy', 'meta', 'team-'])).stdout).toBe(
        'deployment.apps/meta annotated\n',
      )
      live = await get('deploy', 'meta')
      expect(live.metadata.labels).toEqual({ app: 'meta' })
      expect(live.metadata.annotations.team).toBeUndefined()
      expect(
        live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'],
      ).toBeDefined()
    })

    it('patch: strategic merge (default) merges containers by name', async () => {
      const res = await ok([
        'patch',
        'deploy',
        'meta',
        '-p',
        '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}}}',
      ])
      expect(res.stdout).toBe('deployment.apps/meta patched\n')
      const containers = (await get('deploy', 'meta')).spec.template.spec
        .containers as ContainerSpec[]
      expect(containers.map((c) => `${c.name}=${c.image}`)).toEqual([
        'nginx=nginx:1.28',
        'sidecar=busybox:1.36',
      ])
    })

    it('patch --type=merge replaces lists and deletes keys set to null', async () => {
      await ok([
        'patch',
        'deploy',
        'meta',
        '--type=merge',
        '-p',
        '{"metadata":{"labels":{"extra":"1"}},"spec":{"minReadySeconds":5}}',
      ])
      let live = await get('deploy', 'meta')
      expect(live.spec.minReadySeconds).toBe(5)
      expect(live.metadata.labels).toEqual({ app: 'meta', extra: '1' })
      await ok([
        'patch',
        'deploy',
        'meta',
        '--type=merge',
        '-p',
        '{"metadata":{"labels":{"extra":null}}}',
      ])
      live = await get('deploy', 'meta')
      expect(live.metadata.labels).toEqual({ app: 'meta' })
    })

    it('patch --type=json applies RFC 6902 operations, and a failing test op changes nothing', async () => {
      await ok([
        'patch',
        'deploy',
        'meta',
        '--type=json',
        '-p',
        '[{"op":"replace","path":"/spec/replicas","value":4},{"op":"add","path":"/metadata/labels/json","value":"yes"}]',
      ])
      const live = await get('deploy', 'meta')
      expect(live.spec.replicas).toBe(4)
      expect(live.metadata.labels.json).toBe('yes')
      const failed = await run([
        'patch',
        'deploy',
        'meta',
        '--type=json',
        '-p',
        '[{"op":"replace","path":"/spec/replicas","value":9},{"op":"test","path":"/spec/replicas","value":1}]',
      ])
      expect(failed.code).toBe(1)
      // Upstream answers a JSON patch that does not apply with a bare 422 Invalid.
      expect(failed.stderr.trim()).toBe(
        'The request is invalid: the server rejected our request due to an error in our request',
      )
      expect(written(await get('deploy', 'meta'))).toEqual(written(live))
    })

    it('a patch that changes nothing is reported as (no change)', async () => {
      const before = await get('deploy', 'meta')
      const res = await ok([
        'patch',
        'deploy',
        'meta',
        '-p',
        `{"spec":{"replicas":${before.spec.replicas}}}`,
      ])
      expect(res.stdout).toBe('deployment.apps/meta patched (no change)\n')
      expect(written(await get('deploy', 'meta'))).toEqual(written(before))
    })

    it('scale sets .spec.replicas and bumps the generation', async () => {
      const before = await get('deploy', 'meta')
      expect((await ok(['scale', 'deploy', 'meta', '--replicas=5'])).stdout).toBe(
        'deployment.apps/meta scaled\n',
      )
      const after = await get('deploy', 'meta')
      expect(after.spec.replicas).toBe(5)
      expect(after.metadata.generation).toBe(before.metadata.generation + 1)
      // kubectl checks --current-replicas against the scale subresource before it writes.
      const wrong = await run(['scale', 'deploy', 'meta', '--current-replicas=3', '--replicas=6'])
      expect(wrong.code).toBe(1)
      expect((await get('deploy', 'meta')).spec.replicas).toBe(5)
      await ok(['scale', 'deploy', 'meta', '--current-replicas=5', '--replicas=6'])
      expect((await get('deploy', 'meta')).spec.replicas).toBe(6)
    })

    it('set image changes one container image', async () => {
      expect((await ok(['set', 'image', 'deploy/meta', 'sidecar=busybox:1.37'])).stdout).toBe(
        'deployment.apps/meta image updated\n',
      )
      const containers = (await get('deploy', 'meta')).spec.template.spec
        .containers as ContainerSpec[]
      expect(containers.map((c) => `${c.name}=${c.image}`)).toEqual([
        'nginx=nginx:1.28',
        'sidecar=busybox:1.37',
      ])
    })

    it('rollout restart stamps the template; pause and resume toggle spec.paused', async () => {
      const started = Date.now()
      expect((await ok(['rollout', 'restart', 'deploy/meta'])).stdout).toBe(
        'deployment.apps/meta restarted\n',
      )
      const restarted = await get('deploy', 'meta')
      const at = restarted.spec.template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt']
      expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/)
      expect(Math.abs(Date.parse(at) - started)).toBeLessThan(60_000)

      expect((await ok(['rollout', 'pause', 'deploy/meta'])).stdout).toBe(
        'deployment.apps/meta paused\n',
      )
      expect((await get('deploy', 'meta')).spec.paused).toBe(true)
      const twice = await run(['rollout', 'pause', 'deploy/meta'])
      expect(twice.code).toBe(1)
      expect(twice.stderr).toContain('deployments.apps "meta" is already paused')
      expect((await ok(['rollout', 'resume', 'deploy/meta'])).stdout).toBe(
        'deployment.apps/meta resumed\n',
      )
      expect((await get('deploy', 'meta')).spec.paused).toBeUndefined()
    })
  })

  describe.sequential('replace', () => {
    it('replace -f with a stale object is a Conflict and changes nothing', async () => {
      await ok(['apply', '-f', '-'], JSON.stringify(deployment('stale', { replicas: 1 })))
      const stale = await get('deploy', 'stale')
      await ok(['scale', 'deploy', 'stale', '--replicas=3'])
      const current = await get('deploy', 'stale')

      const edited = {
        ...stale,
        spec: { ...stale.spec, replicas: 8 },
        metadata: { ...stale.metadata, labels: { ...stale.metadata.labels, edited: 'yes' } },
      }
      const res = await run(['replace', '-f', '-'], JSON.stringify(edited))
      expect(res.code).toBe(1)
      expect(res.stdout).toBe('')
      expect(res.stderr.trim()).toBe(
        `Error from server (Conflict): error when replacing "STDIN": ${conflictMessage('stale')}`,
      )
      expect(written(await get('deploy', 'stale'))).toEqual(written(current))
    })

    it('replace -f with the current object replaces it', async () => {
      // The Deployment controller may write status between the read and the replace: a client
      // reads again and retries on Conflict, as client-go's RetryOnConflict does.
      const current = await waitFor(
        async () => {
          const latest = await get('deploy', 'stale')
          const next = {
            ...latest,
            spec: { ...latest.spec, replicas: 2 },
            metadata: { ...latest.metadata, labels: { app: 'stale', replaced: 'yes' } },
          }
          const res = await run(['replace', '-f', '-'], JSON.stringify(next))
          if (res.code !== 0 && res.stderr.includes('(Conflict)')) return undefined
          expect(res.stdout).toBe('deployment.apps/stale replaced\n')
          return latest
        },
        { what: 'a replace without a conflict', timeoutMs: 30_000 },
      )
      const after = await get('deploy', 'stale')
      expect(after.spec.replicas).toBe(2)
      expect(after.metadata.labels).toEqual({ app: 'stale', replaced: 'yes' })
      expect(after.metadata.uid).toBe(current.metadata.uid)
    })
  })

  describe('delete', () => {
    it('delete removes the object and a second delete is NotFound', async () => {
      await ok(['apply', '-f', '-'], JSON.stringify(configMap('gone')))
      expect((await ok(['delete', 'cm', 'gone'])).stdout).toBe('configmap "gone" deleted\n')
      await notFound('configmap', 'gone')
      const again = await run(['delete', 'cm', 'gone'])
      expect(again.code).toBe(1)
      expect(again.stderr.trim()).toBe('Error from server (NotFound): configmaps "gone" not found')
    })

    it('delete --wait=false on an object with a finalizer leaves it terminating until the finalizer is removed', async () => {
      await ok(
        ['apply', '-f', '-'],
        JSON.stringify(configMap('held', { finalizers: ['example.com/hold'], data: { a: '1' } })),
      )
      expect((await ok(['delete', 'cm', 'held', '--wait=false'])).stdout).toBe(
        'configmap "held" deleted\n',
      )
      const terminating = await get('cm', 'held')
      expect(terminating.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT/)
      expect(terminating.metadata.finalizers).toEqual(['example.com/hold'])
      expect(terminating.data).toEqual({ a: '1' })

      // Still there a moment later: nothing but the finalizer's owner may finish it.
      expect((await get('cm', 'held')).metadata.uid).toBe(terminating.metadata.uid)
      // No new finalizers once deletion has started.
      const add = await run([
        'patch',
        'cm',
        'held',
        '--type=json',
        '-p',
        '[{"op":"add","path":"/metadata/finalizers/-","value":"example.com/more"}]',
      ])
      expect(add.code).toBe(1)
      expect(add.stderr).toContain('no new finalizers can be added if the object is being deleted')

      await ok(['patch', 'cm', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}'])
      await notFound('configmap', 'held')
    })

    it('delete -l deletes exactly the selected objects', async () => {
      await ok(
        ['apply', '-f', '-'],
        stream(
          configMap('sel-1', { labels: { batch: 'x' } }),
          configMap('sel-2', { labels: { batch: 'x' } }),
          configMap('sel-3', { labels: { batch: 'y' } }),
        ),
      )
      const res = await ok(['delete', 'cm', '-l', 'batch=x'])
      expect(res.stdout.trim().split('\n')).toEqual([
        'configmap "sel-1" deleted',
        'configmap "sel-2" deleted',
      ])
      const left = await kubectlJson(['get', 'cm', '-l', 'batch'], {
        kubeconfig: server.kubeconfig,
      })
      expect(left.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
        'sel-3',
      ])
    })

    it('delete --cascade=orphan is accepted and deletes the owner', async () => {
      await ok(['apply', '-f', '-'], JSON.stringify(deployment('orphaner', { replicas: 1 })))
      // kubectl waits until the garbage collector has orphaned the dependents and the object is gone.
      expect(
        (await ok(['delete', 'deploy', 'orphaner', '--cascade=orphan', '--timeout=20s'])).stdout,
      ).toBe('deployment.apps "orphaner" deleted\n')
      await notFound('deploy', 'orphaner', 'deployments.apps')
    })

    it('delete --cascade=foreground removes the dependents before the owner', async () => {
      await ok(['apply', '-f', '-'], JSON.stringify(deployment('foreground', { replicas: 2 })))
      const rs = await waitFor(
        async () =>
          (
            await kubectlJson(['get', 'rs', '-l', 'app=foreground'], {
              kubeconfig: server.kubeconfig,
            })
          ).items[0]?.metadata.name,
        {
          what: 'the ReplicaSet of deployment foreground',
          timeoutMs: 30_000,
        },
      )
      // A finalizer holds the ReplicaSet, and with it the Deployment, whose deletion waits on it.
      await ok([
        'patch',
        'rs',
        rs,
        '--type=merge',
        '-p',
        '{"metadata":{"finalizers":["example.com/hold"]}}',
      ])
      await ok(['delete', 'deploy', 'foreground', '--cascade=foreground', '--wait=false'])
      const held = await waitFor(
        async () => {
          const r = await kubectlJson(['get', 'rs', rs], { kubeconfig: server.kubeconfig })
          return r.metadata.deletionTimestamp ? r : undefined
        },
        { what: `${rs} being deleted`, timeoutMs: 30_000 },
      )
      expect(held.metadata.finalizers).toContain('example.com/hold')
      const owner = await kubectlJson(['get', 'deploy', 'foreground'], {
        kubeconfig: server.kubeconfig,
      })
      expect(owner.metadata.deletionTimestamp).toBeDefined()
      expect(owner.metadata.finalizers).toContain('foregroundDeletion')
      // The collector deletes the dependents in the foreground too, and finishes once the hold is gone.
      await ok([
        'patch',
        'rs',
        rs,
        '-p',
        '{"metadata":{"$deleteFromPrimitiveList/finalizers":["example.com/hold"]}}',
      ])
      await waitFor(
        async () => (await run(['get', 'deploy', 'foreground'])).stderr.includes('NotFound'),
        { what: 'deployment foreground gone', timeoutMs: 30_000 },
      )
      const left = await kubectlJson(['get', 'rs,pods', '-l', 'app=foreground'], {
        kubeconfig: server.kubeconfig,
      })
      expect(left.items).toEqual([])
    })
  })
})
