import { describe, expect, it } from 'vitest'
import { SELF } from 'cloudflare:test'
import { api, configMap } from './helpers'

const deployment = (name: string, labels = { app: name }, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 2,
    selector: { matchLabels: labels },
    template: {
      metadata: { labels },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
    },
    ...extra,
  },
})

describe('authentication', () => {
  it('answers 401 Unauthorized without a token or with a wrong one, but serves /version to anyone without one', async () => {
    const none = await SELF.fetch('https://edgeplane.test/api/v1/namespaces')
    expect(none.status).toBe(401)
    expect(((await none.json()) as any).reason).toBe('Unauthorized')
    const wrong = await SELF.fetch('https://edgeplane.test/api/v1/namespaces', {
      headers: { Authorization: 'Bearer nope' },
    })
    expect(wrong.status).toBe(401)
    const version = await SELF.fetch('https://edgeplane.test/version')
    expect(((await version.json()) as any).minor).toBe('32')
    // A wrong token is not taken for anonymous, not even on the public paths.
    for (const path of ['/version', '/readyz']) {
      const res = await SELF.fetch(`https://edgeplane.test${path}`, {
        headers: { Authorization: 'Bearer nope' },
      })
      expect(res.status).toBe(401)
      expect(((await res.json()) as any).reason).toBe('Unauthorized')
    }
  })
})

describe('namespaces', () => {
  it('starts with the four initial namespaces', async () => {
    const list = await api('GET', '/api/v1/namespaces')
    const names = list.json.items.map((n: any) => n.metadata.name)
    expect(names).toEqual(
      expect.arrayContaining(['default', 'kube-system', 'kube-public', 'kube-node-lease']),
    )
    expect(list.json.items[0].status.phase).toBe('Active')
  })

  it('marks a deleted namespace Terminating and refuses new objects in it', async () => {
    expect(
      (
        await api('POST', '/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'leaving' },
        })
      ).status,
    ).toBe(201)
    const deleted = await api('DELETE', '/api/v1/namespaces/leaving')
    expect(deleted.status).toBe(202)
    expect(deleted.json.status.phase).toBe('Terminating')
    expect(deleted.json.spec.finalizers).toEqual(['kubernetes'])
    const res = await api('POST', '/api/v1/namespaces/leaving/configmaps', configMap('late'))
    expect(res.status).toBe(403)
    expect(res.json.reason).toBe('Forbidden')
    expect(res.json.message).toBe(
      'unable to create new content in namespace leaving because it is being terminated',
    )
  })

  it('rejects an object in a missing namespace with NotFound and stores nothing', async () => {
    const res = await api('POST', '/api/v1/namespaces/nowhere/configmaps', configMap('x'))
    expect(res.status).toBe(404)
    expect(res.json.message).toBe('namespaces "nowhere" not found')
  })
})

describe('errors', () => {
  it('answers AlreadyExists for a duplicate name', async () => {
    await api('POST', '/api/v1/namespaces/default/configmaps', configMap('dup'))
    const res = await api('POST', '/api/v1/namespaces/default/configmaps', configMap('dup'))
    expect(res.status).toBe(409)
    expect(res.json.reason).toBe('AlreadyExists')
    expect(res.json.message).toBe('configmaps "dup" already exists')
  })

  it('answers 422 Invalid naming the field for a bad name, and stores nothing', async () => {
    const res = await api('POST', '/api/v1/namespaces/default/configmaps', configMap('Bad_Name'))
    expect(res.status).toBe(422)
    expect(res.json.reason).toBe('Invalid')
    expect(res.json.details.causes[0].field).toBe('metadata.name')
    expect((await api('GET', '/api/v1/namespaces/default/configmaps/Bad_Name')).status).toBe(404)
  })

  it('rejects a Deployment whose selector does not match its template', async () => {
    const d = deployment('mismatch')
    d.spec.template.metadata.labels = { app: 'other' }
    const res = await api('POST', '/apis/apps/v1/namespaces/default/deployments', d)
    expect(res.status).toBe(422)
    expect(res.json.details.causes.map((c: any) => c.field)).toContain(
      'spec.template.metadata.labels',
    )
  })

  it('rejects unknown fields under fieldValidation=Strict, and drops them with a warning otherwise', async () => {
    const body = { ...configMap('strict'), spec: { nope: 1 } }
    const strict = await api(
      'POST',
      '/api/v1/namespaces/default/configmaps?fieldValidation=Strict',
      body,
    )
    expect(strict.status).toBe(400)
    expect(strict.json.message).toContain('strict decoding error: unknown field "spec"')
    const warn = await api(
      'POST',
      '/api/v1/namespaces/default/configmaps?fieldValidation=Warn',
      body,
    )
    expect(warn.status).toBe(201)
    expect(warn.headers.get('Warning')).toContain('unknown field \\"spec\\"')
    expect(warn.json.spec).toBeUndefined()
  })

  it('answers 413 for a body over 3 MiB', async () => {
    const res = await api(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      configMap('huge', { big: 'x'.repeat(3 * 1024 * 1024 + 10) }),
    )
    expect(res.status).toBe(413)
    expect(res.json.reason).toBe('RequestEntityTooLarge')
  })

  it('accepts an object of 1.5 MiB', async () => {
    const res = await api('POST', '/apis/apps/v1/namespaces/default/controllerrevisions', {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'large' },
      revision: 1,
      data: { big: 'x'.repeat(1.5 * 1024 * 1024) },
    })
    expect(res.status).toBe(201)
  })

  it('answers 400 for malformed JSON and 415 for an unsupported body type', async () => {
    const bad = await api('POST', '/api/v1/namespaces/default/configmaps', '{not json')
    expect(bad.status).toBe(400)
    const proto = await api(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      'k8s\u0000',
      'application/vnd.kubernetes.protobuf',
    )
    expect(proto.status).toBe(415)
    expect(proto.json.reason).toBe('UnsupportedMediaType')
  })
})

describe('workloads', () => {
  it('tracks generation on spec changes only and serves the scale subresource', async () => {
    const created = await api(
      'POST',
      '/apis/apps/v1/namespaces/default/deployments',
      deployment('gen'),
    )
    expect(created.status).toBe(201)
    expect(created.json.metadata.generation).toBe(1)
    const labelled = await api(
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/gen',
      { metadata: { labels: { a: 'b' } } },
      'application/merge-patch+json',
    )
    expect(labelled.json.metadata.generation).toBe(1)
    const scale = await api(
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/gen/scale',
      { spec: { replicas: 5 } },
      'application/merge-patch+json',
    )
    expect(scale.json.kind).toBe('Scale')
    expect(scale.json.spec.replicas).toBe(5)
    expect(scale.json.status.selector).toBe('app=gen')
    const after = await api('GET', '/apis/apps/v1/namespaces/default/deployments/gen')
    expect(after.json.spec.replicas).toBe(5)
    expect(after.json.metadata.generation).toBe(2)
  })

  it('separates status writes from spec writes', async () => {
    await api('POST', '/apis/apps/v1/namespaces/default/deployments', deployment('split'))
    const main = await api(
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/split',
      { status: { replicas: 9 } },
      'application/merge-patch+json',
    )
    expect(main.json.status.replicas).toBeUndefined()
    const status = await api(
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/split/status',
      { status: { replicas: 9 }, spec: { replicas: 7 } },
      'application/merge-patch+json',
    )
    expect(status.json.status.replicas).toBe(9)
    expect(status.json.spec.replicas).toBe(2)
  })

  it('applies a strategic merge patch by merge key', async () => {
    const d = deployment('smp')
    d.spec.template.spec.containers.push({ name: 'side', image: 'busybox' })
    await api('POST', '/apis/apps/v1/namespaces/default/deployments', d)
    const res = await api(
      'PATCH',
      '/apis/apps/v1/namespaces/default/deployments/smp',
      { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } },
      'application/strategic-merge-patch+json',
    )
    expect(res.json.spec.template.spec.containers.map((c: any) => `${c.name}=${c.image}`)).toEqual([
      'web=nginx:1.28',
      'side=busybox',
    ])
  })

  it('does not persist a dry-run create', async () => {
    const res = await api(
      'POST',
      '/apis/apps/v1/namespaces/default/deployments?dryRun=All',
      deployment('dry'),
    )
    expect(res.status).toBe(201)
    expect((await api('GET', '/apis/apps/v1/namespaces/default/deployments/dry')).status).toBe(404)
  })
})

describe('discovery and tables', () => {
  it('serves aggregated discovery with the exact content type', async () => {
    const res = await SELF.fetch('https://edgeplane.test/apis', {
      headers: {
        Authorization: 'Bearer workers-test-admin-token-0123456789abcdef',
        Accept:
          'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
      },
    })
    expect(res.headers.get('Content-Type')).toBe(
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    )
    const doc = (await res.json()) as any
    expect(doc.items.map((g: any) => g.metadata.name)).toContain('apps')
  })

  it('renders a Table for kubectl get', async () => {
    await api(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      configMap('shown', { a: '1', b: '2' }),
    )
    const res = await api(
      'GET',
      '/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3Dshown',
      undefined,
      'application/json',
      {
        Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
      },
    )
    expect(res.json.kind).toBe('Table')
    expect(res.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Data', 'Age'])
    expect(res.json.rows[0].cells.slice(0, 2)).toEqual(['shown', 2])
  })
})
