import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { kubectl, kubectlJson, type KubectlResult } from './helpers/kubectl'
import { configMap, deployment, namespace, podManifest, stream } from './helpers/manifests'
import { startServer, type TestServer } from './helpers/server'
import { parseTable, parseTables } from './helpers/table'

// Read-only kubectl commands against one server seeded once: discovery, every get output and
// selector. Nothing is written after the seed, so the tests run side by side.
describe.concurrent('kubectl reads', () => {
  let server: TestServer
  const run = (...args: string[]) => kubectl(args, { kubeconfig: server.kubeconfig })

  /** Runs kubectl and fails with its stderr unless it exits 0. */
  const ok = async (...args: string[]): Promise<KubectlResult> => {
    const res = await run(...args)
    if (res.code !== 0)
      throw new Error(`kubectl ${args.join(' ')} exited ${res.code}: ${res.stderr}`)
    return res
  }
  const names = (table: { rows: Record<string, string>[] }) => table.rows.map((r) => r.NAME)

  // Labels of the seeded ConfigMaps in `default`: a tier for set-based selectors, a `legacy` key for existence.
  const seeded: Record<string, Record<string, string>> = {
    'cm-1': { suite: 'read', tier: 'a' },
    'cm-2': { suite: 'read', tier: 'b', legacy: 'true' },
    'cm-3': { suite: 'read', tier: 'c' },
    'cm-4': { suite: 'read', tier: 'a', legacy: 'true' },
    'cm-5': { suite: 'read', tier: 'b' },
    'cm-6': { suite: 'read' },
  }

  beforeAll(async () => {
    server = await startServer()
    // Applied in one stream, in the order given: the namespace exists before its objects.
    const manifests = stream(
      namespace('team-a'),
      deployment('web', {
        extraLabels: { showcase: 'yes' },
        containers: [
          { name: 'nginx', image: 'nginx:1.27' },
          { name: 'sidecar', image: 'busybox:1.36' },
        ],
      }),
      deployment('api', { namespace: 'team-a', replicas: 1 }),
      podManifest('p1', { labels: { app: 'p1', showcase: 'yes' }, image: 'nginx:1.27' }),
      ...Object.entries(seeded).map(([name, labels]) =>
        configMap(name, { labels, data: { n: name } }),
      ),
      // Sorts first by name, but its namespace sorts after `default`.
      configMap('aa', { namespace: 'team-a', labels: { suite: 'read', tier: 'a' } }),
    )
    const res = await kubectl(['apply', '-f', '-'], {
      kubeconfig: server.kubeconfig,
      stdin: manifests,
    })
    expect(res.stderr).toBe('')
    expect(res.code).toBe(0)
  })

  afterAll(async () => {
    await server?.dispose()
  })

  describe('discovery', () => {
    it('kubectl version shows the server version', async () => {
      const res = await ok('version')
      expect(res.stdout).toMatch(/^Server Version: v1\.32\.\S+$/m)
      expect(res.stderr).toBe('')
    })

    it('kubectl api-resources lists deployments with their short name, group/version and scope', async () => {
      const table = parseTable((await ok('api-resources')).stdout)
      expect(table.headers).toEqual(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'])
      const row = (name: string) => table.rows.find((r) => r.NAME === name)
      expect(row('deployments')).toEqual({
        NAME: 'deployments',
        SHORTNAMES: 'deploy',
        APIVERSION: 'apps/v1',
        NAMESPACED: 'true',
        KIND: 'Deployment',
      })
      expect(row('namespaces')).toEqual({
        NAME: 'namespaces',
        SHORTNAMES: 'ns',
        APIVERSION: 'v1',
        NAMESPACED: 'false',
        KIND: 'Namespace',
      })
      expect(row('configmaps')).toMatchObject({ SHORTNAMES: 'cm', NAMESPACED: 'true' })
      const clusterScoped = parseTable((await ok('api-resources', '--namespaced=false')).stdout)
      expect(names(clusterScoped)).toEqual(expect.arrayContaining(['namespaces', 'nodes']))
      expect(names(clusterScoped)).not.toContain('deployments')
    })

    it('kubectl api-versions lists the core and named group versions', async () => {
      const lines = (await ok('api-versions')).stdout.trim().split('\n')
      expect(lines).toEqual(expect.arrayContaining(['v1', 'apps/v1', 'batch/v1']))
    })

    it('kubectl get --raw returns the object JSON', async () => {
      const ns = JSON.parse((await ok('get', '--raw', '/api/v1/namespaces/default')).stdout)
      expect(ns).toMatchObject({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'default' },
        status: { phase: 'Active' },
      })
    })
  })

  describe('output formats', () => {
    it('-o yaml prints the whole object', async () => {
      const obj = parseYaml((await ok('get', 'deploy', 'web', '-o', 'yaml')).stdout)
      expect(obj).toMatchObject({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default', generation: 1 },
      })
      expect(obj.metadata.uid).toMatch(/^[0-9a-f-]{36}$/)
      expect(obj.spec.template.spec.containers.map((c: { image: string }) => c.image)).toEqual([
        'nginx:1.27',
        'busybox:1.36',
      ])
    })

    it('-o json on a list prints a List with every item and its kind', async () => {
      const list = await kubectlJson(['get', 'cm', '-l', 'suite=read'], {
        kubeconfig: server.kubeconfig,
      })
      expect(list.kind).toBe('List')
      expect(list.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(
        Object.keys(seeded),
      )
      expect(
        list.items.every(
          (i: { kind: string; apiVersion: string }) =>
            i.kind === 'ConfigMap' && i.apiVersion === 'v1',
        ),
      ).toBe(true)
      expect(list.items[0].data).toEqual({ n: 'cm-1' })
    })

    it('the default table and -o wide show the server-printed deployment columns', async () => {
      const [plain, wide] = await Promise.all([
        ok('get', 'deploy'),
        ok('get', 'deploy', '-o', 'wide'),
      ])
      const t = parseTable(plain.stdout)
      expect(t.headers).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'])
      expect(t.rows).toHaveLength(1)
      // No node runs pods here, so none is ready or available; UP-TO-DATE depends on controllers.
      expect(t.rows[0]).toMatchObject({ NAME: 'web', READY: '0/2', AVAILABLE: '0' })
      expect(t.rows[0]!['UP-TO-DATE']).toMatch(/^\d+$/)
      expect(t.rows[0]!.AGE).toMatch(/^\d+s$/)
      const w = parseTable(wide.stdout)
      expect(w.headers).toEqual([
        'NAME',
        'READY',
        'UP-TO-DATE',
        'AVAILABLE',
        'AGE',
        'CONTAINERS',
        'IMAGES',
        'SELECTOR',
      ])
      expect(w.rows[0]).toMatchObject({
        NAME: 'web',
        CONTAINERS: 'nginx,sidecar',
        IMAGES: 'nginx:1.27,busybox:1.36',
        SELECTOR: 'app=web',
      })
    })

    it('-o name prints kind-qualified names', async () => {
      const [one, many] = await Promise.all([
        ok('get', 'deploy', 'web', '-o', 'name'),
        ok('get', 'cm', '-l', 'tier=a', '-o', 'name'),
      ])
      expect(one.stdout).toBe('deployment.apps/web\n')
      expect(many.stdout).toBe('configmap/cm-1\nconfigmap/cm-4\n')
    })

    it('get pods,deploy prints one table per type with kind/ prefixes', async () => {
      const tables = parseTables((await ok('get', 'pods,deploy', '-l', 'showcase=yes')).stdout)
      expect(tables).toHaveLength(2)
      expect(tables[0]!.headers).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'])
      expect(tables[0]!.rows).toEqual([
        expect.objectContaining({ NAME: 'pod/p1', READY: '0/1', STATUS: 'Pending', RESTARTS: '0' }),
      ])
      expect(tables[1]!.headers[0]).toBe('NAME')
      expect(names(tables[1]!)).toEqual(['deployment.apps/web'])
    })

    it('--show-labels adds the labels column', async () => {
      const t = parseTable((await ok('get', 'cm', '-l', 'suite=read', '--show-labels')).stdout)
      expect(t.headers).toEqual(['NAME', 'DATA', 'AGE', 'LABELS'])
      expect(t.rows.find((r) => r.NAME === 'cm-2')!.LABELS).toBe('legacy=true,suite=read,tier=b')
      expect(t.rows.find((r) => r.NAME === 'cm-6')!.LABELS).toBe('suite=read')
    })
  })

  describe('scope and selectors', () => {
    it('-A lists every namespace with a NAMESPACE column', async () => {
      const t = parseTable((await ok('get', 'deploy', '-A')).stdout)
      expect(t.headers).toEqual(['NAMESPACE', 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'])
      expect(t.rows.map((r) => `${r.NAMESPACE}/${r.NAME}`)).toEqual(['default/web', 'team-a/api'])
      // Without -A only the context namespace is listed; -n picks another one.
      expect(names(parseTable((await ok('get', 'deploy', '-n', 'team-a')).stdout))).toEqual(['api'])
    })

    it('--sort-by=.metadata.name orders across namespaces by name', async () => {
      const [unsorted, sorted] = await Promise.all([
        ok('get', 'cm', '-A', '-l', 'suite=read'),
        ok('get', 'cm', '-A', '-l', 'suite=read', '--sort-by=.metadata.name'),
      ])
      expect(names(parseTable(unsorted.stdout))).toEqual([...Object.keys(seeded), 'aa'])
      const t = parseTable(sorted.stdout)
      expect(names(t)).toEqual(['aa', ...Object.keys(seeded)])
      expect(t.rows[0]!.NAMESPACE).toBe('team-a')
    })

    it('-l handles equality, set-based in/notin and (non-)existence', async () => {
      const select = async (selector: string) =>
        names(parseTable((await ok('get', 'cm', '-l', selector)).stdout))
      const [eq, neq, inSet, notIn, has, hasNot, combined] = await Promise.all([
        select('tier=a'),
        select('suite=read,tier!=a'),
        select('tier in (a,b)'),
        select('suite=read,tier notin (a,b)'),
        select('legacy'),
        select('suite=read,!legacy'),
        select('tier in (a,b),!legacy'),
      ])
      expect(eq).toEqual(['cm-1', 'cm-4'])
      // Objects without the key match != and notin, as upstream.
      expect(neq).toEqual(['cm-2', 'cm-3', 'cm-5', 'cm-6'])
      expect(inSet).toEqual(['cm-1', 'cm-2', 'cm-4', 'cm-5'])
      expect(notIn).toEqual(['cm-3', 'cm-6'])
      expect(has).toEqual(['cm-2', 'cm-4'])
      expect(hasNot).toEqual(['cm-1', 'cm-3', 'cm-5', 'cm-6'])
      expect(combined).toEqual(['cm-1', 'cm-5'])
    })

    it('-l with no match says so on stderr and exits 0', async () => {
      const res = await run('get', 'cm', '-l', 'tier=zzz')
      expect(res.code).toBe(0)
      expect(res.stdout).toBe('')
      expect(res.stderr.trim()).toBe('No resources found in default namespace.')
    })

    it('--field-selector filters on metadata.name', async () => {
      const [eq, neq] = await Promise.all([
        ok('get', 'cm', '--field-selector', 'metadata.name=cm-3'),
        ok('get', 'cm', '-l', 'suite=read', '--field-selector', 'metadata.name!=cm-3'),
      ])
      expect(names(parseTable(eq.stdout))).toEqual(['cm-3'])
      expect(names(parseTable(neq.stdout))).toEqual(['cm-1', 'cm-2', 'cm-4', 'cm-5', 'cm-6'])
      const [pending, running] = await Promise.all([
        ok('get', 'pods', '-l', 'app=p1', '--field-selector', 'status.phase=Pending', '-o', 'name'),
        run('get', 'pods', '-l', 'app=p1', '--field-selector', 'status.phase=Running'),
      ])
      expect(pending.stdout).toBe('pod/p1\n')
      expect(running).toEqual({
        code: 0,
        stdout: '',
        stderr: 'No resources found in default namespace.\n',
      })
    })

    it('--field-selector on an unsupported field is a 400 BadRequest', async () => {
      const res = await run('get', 'cm', '--field-selector', 'spec.foo=x')
      expect(res.code).toBe(1)
      expect(res.stdout).toBe('')
      expect(res.stderr).toContain('Error from server (BadRequest)')
      expect(res.stderr).toContain(
        '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
      )
    })

    it('--chunk-size=2 pages through every object and prints one table', async () => {
      const res = await ok('get', 'cm', '-l', 'suite=read', '--chunk-size=2', '-v=6')
      const t = parseTable(res.stdout)
      expect(names(t)).toEqual(Object.keys(seeded))
      // Six objects in pages of two: the first request and at least two continuations.
      const pages = res.stderr
        .split('\n')
        .filter((l) => /GET https:\S+\/configmaps\?\S*limit=2\S* 200/.test(l))
      expect(pages.length).toBeGreaterThanOrEqual(3)
      expect(pages.filter((l) => l.includes('continue=')).length).toBe(pages.length - 1)
      const asNames = await ok(
        'get',
        'cm',
        '-A',
        '-l',
        'suite=read',
        '--chunk-size=2',
        '-o',
        'name',
      )
      expect(asNames.stdout.trim().split('\n')).toEqual(
        [...Object.keys(seeded), 'aa'].map((n) => `configmap/${n}`),
      )
    })

    it('a missing object is NotFound', async () => {
      const res = await run('get', 'deploy', 'nope')
      expect(res.code).toBe(1)
      expect(res.stderr.trim()).toBe(
        'Error from server (NotFound): deployments.apps "nope" not found',
      )
    })
  })
})
