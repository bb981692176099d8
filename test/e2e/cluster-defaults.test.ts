import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectlJson, kubectlOn } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { parseTable } from './helpers/table'
import { waitFor } from './helpers/wait'
import { upstreamResources } from './helpers/upstream-discovery'

// What every cluster holds and serves from the start, through the real kubectl: per-namespace
// defaults, the kubernetes Service, componentstatuses, events.k8s.io, NetworkPolicy, and discovery
// as kube-apiserver 1.32 publishes it.
describe('cluster defaults and everyday kinds', () => {
  let server: TestServer
  const { run, ok } = kubectlOn(() => server.kubeconfig)
  const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

  beforeAll(async () => {
    server = await startServer()
  })

  afterAll(async () => {
    await server?.dispose()
  })

  it('api-resources lists every served kind with upstream 1.32 short names, scope, verbs and categories', async () => {
    const table = parseTable((await ok(['api-resources', '-o', 'wide'])).stdout)
    const words = (cell: string) =>
      cell
        .replace(/[[\]]/g, '')
        .split(/[\s,]+/)
        .filter(Boolean)
        .sort()
        .join(',')
    const served = table.rows.map((row) => ({ key: `${row.NAME} ${row.APIVERSION}`, row }))
    const unknown = served.filter(({ key }) => !upstreamResources[key]).map(({ key }) => key)
    expect(unknown).toEqual([])
    for (const { key, row } of served) {
      const want = upstreamResources[key]!
      expect({
        key,
        shortNames: row.SHORTNAMES,
        namespaced: row.NAMESPACED,
        kind: row.KIND,
        verbs: words(row.VERBS ?? ''),
        categories: words(row.CATEGORIES ?? ''),
      }).toEqual({
        key,
        shortNames: want.shortNames,
        namespaced: String(want.namespaced),
        kind: want.kind,
        verbs: want.verbs.split(',').sort().join(','),
        categories: want.categories,
      })
    }
    expect(served.map((s) => s.key)).toEqual(
      expect.arrayContaining([
        'componentstatuses v1',
        'events events.k8s.io/v1',
        'networkpolicies networking.k8s.io/v1',
      ]),
    )
  })

  it('a new namespace gets kube-root-ca.crt with the CA in the kubeconfig, and the default ServiceAccount', async () => {
    await ok(['create', 'namespace', 'fresh'])
    const cm = await waitFor(
      () => json(['get', 'cm', 'kube-root-ca.crt', '-n', 'fresh', '-o', 'json']),
      { what: 'kube-root-ca.crt in fresh', timeoutMs: 30_000 },
    )
    expect(cm.data['ca.crt']).toBe(server.ca)
    expect(cm.metadata.annotations['kubernetes.io/description']).toMatch(
      /^Contains a CA bundle that can be used to verify the kube-apiserver/,
    )
    const sa = await waitFor(() => json(['get', 'sa', 'default', '-n', 'fresh', '-o', 'json']), {
      what: 'default ServiceAccount in fresh',
      timeoutMs: 30_000,
    })
    await ok(['delete', 'sa', 'default', '-n', 'fresh'])
    await ok(['delete', 'cm', 'kube-root-ca.crt', '-n', 'fresh'])
    const again = await waitFor(
      async () => {
        const next = await json(['get', 'sa', 'default', '-n', 'fresh', '-o', 'json'])
        return next.metadata.uid !== sa.metadata.uid && next
      },
      { what: 'the default ServiceAccount recreated', timeoutMs: 30_000 },
    )
    expect(again.metadata.name).toBe('default')
    await waitFor(() => json(['get', 'cm', 'kube-root-ca.crt', '-n', 'fresh', '-o', 'json']), {
      what: 'kube-root-ca.crt recreated',
      timeoutMs: 30_000,
    })
  })

  it('default/kubernetes is a ClusterIP Service on the first service address whose Endpoints are the API', async () => {
    const svc = await waitFor(() => json(['get', 'svc', 'kubernetes', '-o', 'json']), {
      what: 'the kubernetes Service',
      timeoutMs: 30_000,
    })
    expect(svc.spec).toMatchObject({
      type: 'ClusterIP',
      clusterIP: '10.96.0.1',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: server.port }],
    })
    const printed = parseTable((await ok(['get', 'svc', 'kubernetes'])).stdout).rows[0]!
    expect(printed).toMatchObject({
      NAME: 'kubernetes',
      TYPE: 'ClusterIP',
      'CLUSTER-IP': '10.96.0.1',
      'PORT(S)': '443/TCP',
    })
    const ep = await waitFor(() => json(['get', 'endpoints', 'kubernetes', '-o', 'json']), {
      what: 'the kubernetes Endpoints',
      timeoutMs: 30_000,
    })
    expect(ep.subsets).toEqual([
      {
        addresses: [{ ip: '127.0.0.1' }],
        ports: [{ name: 'https', port: server.port, protocol: 'TCP' }],
      },
    ])
    const all = (await ok(['get', 'all'])).stdout
    expect(all).toMatch(/^service\/kubernetes\s+ClusterIP\s+10\.96\.0\.1\s/m)
  })

  it('kubectl get cs reports the stores and controller hosts, with the deprecation warning', async () => {
    const res = await ok(['get', 'cs'])
    expect(res.stderr).toContain('v1 ComponentStatus is deprecated in v1.19+')
    const rows = parseTable(res.stdout).rows
    expect(rows.length).toBeGreaterThan(10)
    expect(rows.find((r) => r.NAME === 'store-pods')).toMatchObject({
      STATUS: 'Healthy',
      MESSAGE: 'ok',
    })
    expect(rows.find((r) => r.NAME === 'controller-scheduler')).toMatchObject({ STATUS: 'Healthy' })
    expect(rows.some((r) => r.NAME.startsWith('etcd'))).toBe(false)
  })

  it('events written through events.k8s.io/v1 show in kubectl events and get events, and back', async () => {
    const eventTime = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
    const manifest = JSON.stringify({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'widget.sync', namespace: 'default' },
      eventTime,
      reportingController: 'example.com/operator',
      reportingInstance: 'operator-0',
      action: 'Reconcile',
      reason: 'WidgetSynced',
      note: 'widget is in sync',
      type: 'Normal',
      regarding: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'widget' },
    })
    await ok(['create', '-f', '-'], manifest)
    const events = (await ok(['events'])).stdout
    expect(events).toMatch(/Normal\s+WidgetSynced\s+ConfigMap\/widget\s+widget is in sync/)
    const v1 = await json(['get', 'events.events.k8s.io', 'widget.sync', '-o', 'json'])
    expect(v1).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      note: 'widget is in sync',
      reportingController: 'example.com/operator',
      regarding: { name: 'widget' },
    })
    const core = await json(['get', 'events', 'widget.sync', '-o', 'json'])
    expect(core).toMatchObject({
      apiVersion: 'v1',
      message: 'widget is in sync',
      reportingComponent: 'example.com/operator',
      involvedObject: { name: 'widget' },
    })
    const listed = parseTable(
      (await ok(['get', 'events.events.k8s.io', '--field-selector', 'regarding.name=widget']))
        .stdout,
    ).rows
    expect(listed.map((r) => r.REASON)).toEqual(['WidgetSynced'])
  })

  it('a NetworkPolicy is validated, stored, and says in describe and on apply that nothing enforces it', async () => {
    const policy = (ports: unknown) =>
      JSON.stringify({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'web-only' },
        spec: {
          podSelector: { matchLabels: { app: 'web' } },
          ingress: [{ from: [{ podSelector: { matchLabels: { role: 'client' } } }], ports }],
        },
      })
    const bad = await run(['apply', '-f', '-'], policy([{ port: 80, endPort: 70 }]))
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain(
      'spec.ingress[0].ports[0].endPort: Invalid value: 80: must be greater than or equal to `port`',
    )
    const applied = await ok(['apply', '-f', '-'], policy([{ port: 80 }]))
    expect(applied.stdout.trim()).toBe('networkpolicy.networking.k8s.io/web-only created')
    expect(applied.stderr).toContain('NetworkPolicy is stored but not enforced')
    const row = parseTable((await ok(['get', 'netpol'])).stdout).rows[0]!
    expect(row).toMatchObject({ NAME: 'web-only', 'POD-SELECTOR': 'app=web' })
    const described = (await ok(['describe', 'networkpolicy', 'web-only'])).stdout
    expect(described).toMatch(
      /Annotations:\s+networking\.edgeplane\.dev\/enforced: false: no node runtime enforces NetworkPolicy yet/,
    )
    expect(described).toMatch(/PodSelector:\s+app=web/)
  })
})
