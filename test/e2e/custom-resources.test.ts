import {
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  Watch,
  setHeaderOptions,
} from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectlJson, kubectlOn } from './helpers/kubectl'
import { startKubectl } from './helpers/kubectl-stream'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

const crd = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: widgets
    singular: widget
    kind: Widget
    shortNames: [wd]
    categories: [all]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - name: Size
      type: string
      jsonPath: .spec.size
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: What the widget should be.
            required: [size]
            properties:
              size:
                type: string
                description: How big the widget is.
                enum: [small, large]
              replicas:
                type: integer
                minimum: 0
                maximum: 10
                default: 1
              code:
                type: string
                pattern: '^[a-z]+$'
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
          status:
            type: object
            properties:
              replicas:
                type: integer
`

const widget = (name: string, spec: string) => `
apiVersion: example.com/v1
kind: Widget
metadata:
  name: ${name}
spec:
${spec}
`

// The CRD lifecycle through the real kubectl: a CRD serves a new kind at once, with its schema,
// printer columns, subresources and categories, and takes its objects with it when deleted.
describe('CustomResourceDefinitions with kubectl', () => {
  let server: TestServer
  const { run, ok } = kubectlOn(() => server.kubeconfig)

  beforeAll(async () => {
    server = await startServer()
    await ok(['apply', '-f', '-'], crd)
    await ok(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=30s'])
  })

  afterAll(async () => {
    await server?.dispose()
  })

  it('the CRD is Established, with its names accepted', async () => {
    const got = await kubectlJson(['get', 'crd', 'widgets.example.com'], {
      kubeconfig: server.kubeconfig,
    })
    const conditions = Object.fromEntries(got.status.conditions.map((c: any) => [c.type, c.status]))
    expect(conditions).toMatchObject({ NamesAccepted: 'True', Established: 'True' })
    expect(got.status.acceptedNames).toMatchObject({
      kind: 'Widget',
      listKind: 'WidgetList',
      plural: 'widgets',
    })
    expect(got.status.storedVersions).toEqual(['v1'])
    const table = await ok(['get', 'crds'])
    expect(table.stdout).toMatch(/^NAME\s+CREATED AT$/m)
    expect(table.stdout).toMatch(/^widgets\.example\.com\s+\d{4}-\d\d-\d\dT/m)
  })

  it('refuses a plural that is not a DNS-1035 label (one that begins with a digit), as upstream', async () => {
    const bad = crd.replaceAll('widgets', '3widgets').replace('kind: Widget', 'kind: ThreeWidget')
    const res = await run(['apply', '-f', '-'], bad)
    expect(res.code).not.toBe(0)
    expect(res.stderr).toContain('spec.names.plural: Invalid value: "3widgets"')
    expect(res.stderr).toContain(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character",
    )
    expect((await run(['get', 'crd', '3widgets.example.com'])).code).not.toBe(0)
  })

  it('discovery lists the kind with its short name; explain reads its schema', async () => {
    const resources = await ok(['api-resources', '--api-group=example.com'])
    expect(resources.stdout).toMatch(/^widgets\s+wd\s+example\.com\/v1\s+true\s+Widget$/m)
    const explain = await ok(['explain', 'widgets.spec.size'])
    expect(explain.stdout).toContain('KIND:       Widget')
    expect(explain.stdout).toContain('FIELD: size <string>')
    expect(explain.stdout).toContain('How big the widget is.')
  })

  it('creates, lists with printer columns, gets by short name, and defaults from the schema', async () => {
    await ok(['apply', '-f', '-'], widget('w1', '  size: small\n  code: abc'))
    const table = await ok(['get', 'widgets'])
    expect(table.stdout).toMatch(/^NAME\s+SIZE\s+REPLICAS\s+AGE$/m)
    expect(table.stdout).toMatch(/^w1\s+small\s+1\s+\d+s$/m)
    const got = await kubectlJson(['get', 'wd', 'w1'], { kubeconfig: server.kubeconfig })
    expect(got.spec).toEqual({ size: 'small', code: 'abc', replicas: 1 })
    expect(got.metadata.generation).toBe(1)
    const again = await ok(['apply', '-f', '-'], widget('w1', '  size: small\n  code: abc'))
    expect(again.stdout).toContain('widget.example.com/w1 unchanged')
  })

  it('rejects objects that break the schema, naming the field, and stores nothing', async () => {
    const bad = await run(
      ['apply', '-f', '-'],
      widget('bad', '  size: huge\n  replicas: 20\n  code: "12"'),
    )
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('The Widget "bad" is invalid')
    expect(bad.stderr).toContain(
      'spec.size: Unsupported value: "huge": supported values: "small", "large"',
    )
    expect(bad.stderr).toContain(
      'spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10',
    )
    expect(bad.stderr).toContain(
      `spec.code: Invalid value: "12": spec.code in body should match '^[a-z]+$'`,
    )
    const missing = await run(['apply', '-f', '-'], widget('bad', '  replicas: 2'))
    expect(missing.stderr).toContain('spec.size: Required value')
    const typed = await run(['apply', '-f', '-'], widget('bad', '  size: small\n  replicas: "two"'))
    expect(typed.stderr).toContain(
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    )
    const unknown = await run(['apply', '-f', '-'], widget('bad', '  size: small\n  colour: red'))
    expect(unknown.stderr).toContain('unknown field "spec.colour"')
    expect((await run(['get', 'widget', 'bad'])).code).not.toBe(0)
  })

  it('keeps unknown fields only where the schema preserves them', async () => {
    const res = await ok(
      ['apply', '--validate=false', '-f', '-'],
      widget('w2', '  size: large\n  colour: red\n  extra:\n    anything: [1, 2]'),
    )
    expect(res.stdout).toContain('widget.example.com/w2 created')
    const got = await kubectlJson(['get', 'widget', 'w2'], { kubeconfig: server.kubeconfig })
    expect(got.spec.colour).toBeUndefined()
    expect(got.spec.extra).toEqual({ anything: [1, 2] })
  })

  it('serves the scale and status subresources as declared', async () => {
    await ok(['apply', '-f', '-'], widget('w3', '  size: small'))
    await ok(['scale', 'widget/w3', '--replicas=4'])
    const scaled = await kubectlJson(['get', 'widget', 'w3'], { kubeconfig: server.kubeconfig })
    expect(scaled.spec.replicas).toBe(4)
    await ok([
      'patch',
      'widget',
      'w3',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"replicas":3}}',
    ])
    const main = await ok([
      'patch',
      'widget',
      'w3',
      '--type=merge',
      '-p',
      '{"status":{"replicas":9}}',
    ])
    expect(main.stdout).toContain('patched')
    const got = await kubectlJson(['get', 'widget', 'w3'], { kubeconfig: server.kubeconfig })
    expect(got.status).toEqual({ replicas: 3 })
  })

  it('watches custom objects', async () => {
    const watch = startKubectl(['get', 'widgets', '--watch-only', '-o', 'name'], {
      kubeconfig: server.kubeconfig,
      timeoutMs: 60_000,
    })
    try {
      await new Promise((r) => setTimeout(r, 1500))
      await ok(['apply', '-f', '-'], widget('watched', '  size: large'))
      await waitFor(() => watch.stdout().includes('widget.example.com/watched'), {
        timeoutMs: 20_000,
        what: 'watch event for the new widget',
      })
    } finally {
      await watch.stop()
    }
  })

  it('a second client (@kubernetes/client-node) creates, patches and watches a custom object', async () => {
    const kc = new KubeConfig()
    kc.loadFromFile(server.kubeconfig)
    const api = kc.makeApiClient(CustomObjectsApi)
    const where = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets' }
    const events: string[] = []
    const watching = await new Watch(kc).watch(
      '/apis/example.com/v1/namespaces/default/widgets',
      { resourceVersion: (await api.listNamespacedCustomObject(where)).metadata.resourceVersion },
      (type: string, obj: any) => events.push(`${type} ${obj.metadata.name} ${obj.spec?.size}`),
      () => {},
    )
    try {
      const created = await api.createNamespacedCustomObject({
        ...where,
        body: {
          apiVersion: 'example.com/v1',
          kind: 'Widget',
          metadata: { name: 'from-js' },
          spec: { size: 'small' },
        },
      })
      expect(created.spec).toEqual({ size: 'small', replicas: 1 })
      const patched = await api.patchNamespacedCustomObject(
        { ...where, name: 'from-js', body: { spec: { size: 'large' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      )
      expect(patched.spec.size).toBe('large')
      expect(Number(patched.metadata.resourceVersion)).toBeGreaterThan(
        Number(created.metadata.resourceVersion),
      )
      await waitFor(
        () => events.includes('ADDED from-js small') && events.includes('MODIFIED from-js large'),
        { timeoutMs: 20_000, what: `client-node watch events (got ${events.join('; ')})` },
      )
      const refused = await api
        .createNamespacedCustomObject({
          ...where,
          body: {
            apiVersion: 'example.com/v1',
            kind: 'Widget',
            metadata: { name: 'bad-js' },
            spec: { size: 'medium' },
          },
        })
        .catch((e: any) => e)
      expect(refused.code).toBe(422)
    } finally {
      watching.abort()
    }
  })

  it('get all includes the kind through its category', async () => {
    const all = await ok(['get', 'all'])
    expect(all.stdout).toContain('widget.example.com/w1')
  })

  it('serves every served version, each showing objects in its own apiVersion', async () => {
    const versioned = (name: string) => `
    - name: ${name}
      served: true
      storage: ${name === 'v1'}
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              x-kubernetes-preserve-unknown-fields: true`
    await ok(
      ['apply', '-f', '-'],
      `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Cluster
  names: {plural: gadgets, kind: Gadget}
  versions:${versioned('v1')}${versioned('v2')}
`,
    )
    await ok(['wait', '--for=condition=Established', 'crd/gadgets.example.com', '--timeout=30s'])
    await ok(
      ['apply', '-f', '-'],
      'apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g1\nspec:\n  colour: red\n',
    )
    const v2 = await kubectlJson(['get', 'gadgets.v2.example.com', 'g1'], {
      kubeconfig: server.kubeconfig,
    })
    expect(v2.apiVersion).toBe('example.com/v2')
    expect(v2.spec).toEqual({ colour: 'red' })
    const v1 = await kubectlJson(['get', 'gadgets.v1.example.com', 'g1'], {
      kubeconfig: server.kubeconfig,
    })
    expect(v1.apiVersion).toBe('example.com/v1')
    // The preferred version is the highest: v2.
    const list = await kubectlJson(['get', 'gadgets'], { kubeconfig: server.kubeconfig })
    expect(list.items.map((o: any) => o.apiVersion)).toEqual(['example.com/v2'])
    const watched = await ok([
      'get',
      '--raw',
      '/apis/example.com/v2/gadgets?watch=true&timeoutSeconds=1',
    ])
    expect(JSON.parse(watched.stdout.trim().split('\n')[0]!)).toMatchObject({
      type: 'ADDED',
      object: { apiVersion: 'example.com/v2', metadata: { name: 'g1' } },
    })
  })

  it('deleting a namespace deletes the custom objects in it', async () => {
    await ok(['create', 'namespace', 'crd-ns'])
    await ok(['apply', '-n', 'crd-ns', '-f', '-'], widget('inside', '  size: small'))
    await ok(['delete', 'namespace', 'crd-ns', '--timeout=60s'])
    await ok(['create', 'namespace', 'crd-ns'])
    const list = await kubectlJson(['get', 'widgets', '-n', 'crd-ns'], {
      kubeconfig: server.kubeconfig,
    })
    expect(list.items).toEqual([])
  })

  it('deleting the CRD deletes its objects, refusing new ones meanwhile, then stops serving the kind', async () => {
    await ok(
      ['apply', '-f', '-'],
      widget('held', '  size: small').replace(
        '  name: held',
        '  name: held\n  finalizers: [example.com/hold]',
      ),
    )
    await ok(['delete', 'crd', 'widgets.example.com', '--wait=false'])
    const terminating = await waitFor(
      async () => {
        const got = await kubectlJson(['get', 'crd', 'widgets.example.com'], {
          kubeconfig: server.kubeconfig,
        })
        return got.status.conditions.find(
          (c: any) => c.type === 'Terminating' && c.status === 'True',
        )
      },
      { timeoutMs: 30_000, what: 'the CRD to be Terminating' },
    )
    expect(terminating.reason).toBe('InstanceDeletionInProgress')
    const refused = await run(['apply', '-f', '-'], widget('late', '  size: small'))
    expect(refused.stderr).toContain(
      'create not allowed while custom resource definition is terminating',
    )
    const held = await kubectlJson(['get', 'widget', 'held'], { kubeconfig: server.kubeconfig })
    expect(held.metadata.deletionTimestamp).toBeDefined()
    expect((await run(['get', 'widget', 'w1'])).stderr).toContain('NotFound')

    await ok(['patch', 'widget', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":null}}'])
    await ok(['wait', '--for=delete', 'crd/widgets.example.com', '--timeout=60s'])
    // A CRD of the same name starts empty: the old objects went with the old CRD.
    await ok(['apply', '-f', '-'], crd)
    await ok(['wait', '--for=condition=Established', 'crd/widgets.example.com', '--timeout=30s'])
    const list = await kubectlJson(['get', 'widgets', '-A'], { kubeconfig: server.kubeconfig })
    expect(list.items).toEqual([])
  })
})
