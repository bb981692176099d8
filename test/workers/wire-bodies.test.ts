import { beforeAll, describe, expect, it } from 'vitest'
import { SELF } from 'cloudflare:test'
import { api, configMap, token } from './helpers'

/**
 * Response bodies byte for byte as kube-apiserver writes them: a Status's fields in metav1.Status's
 * order with its empty optional fields left out, and every compact JSON body ending with the
 * newline of Go's json.Encoder. The expected texts are upstream's answers to the same requests.
 */

const NS = 'bodies'

async function raw(
  method: string,
  path: string,
  opts: { body?: unknown; bearer?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string }> {
  const res = await SELF.fetch(`https://edgeplane.test${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${opts.bearer ?? token}`,
      'User-Agent': 'kubectl/v1.32.0 (linux/amd64) kubernetes/70d3cc9',
      ...(opts.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...opts.headers,
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  })
  return { status: res.status, text: await res.text() }
}

let nobody = ''

beforeAll(async () => {
  expect(
    (
      await api('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: NS },
      })
    ).status,
  ).toBe(201)
  expect(
    (await api('POST', `/api/v1/namespaces/${NS}/configmaps`, configMap('present'))).status,
  ).toBe(201)
  expect(
    (
      await api('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: 'nobody' },
      })
    ).status,
  ).toBe(201)
  const tr = await api('POST', `/api/v1/namespaces/${NS}/serviceaccounts/nobody/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: {},
  })
  expect(tr.status).toBe(201)
  nobody = tr.json.status.token as string
})

describe('Status bodies', () => {
  it('404 of a core and of a grouped resource', async () => {
    const core = await raw('GET', `/api/v1/namespaces/${NS}/configmaps/missing`)
    expect(core.status).toBe(404)
    expect(core.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"missing\\" not found","reason":"NotFound","details":{"name":"missing","kind":"configmaps"},"code":404}\n',
    )
    const grouped = await raw('GET', `/apis/apps/v1/namespaces/${NS}/deployments/missing`)
    expect(grouped.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \\"missing\\" not found","reason":"NotFound","details":{"name":"missing","group":"apps","kind":"deployments"},"code":404}\n',
    )
  })

  it('404 of a path nothing serves keeps its empty details', async () => {
    const res = await raw('GET', '/apis/no.such.group/v1')
    expect(res.status).toBe(404)
    expect(res.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}\n',
    )
  })

  it('409 AlreadyExists and 409 Conflict', async () => {
    const exists = await raw('POST', `/api/v1/namespaces/${NS}/configmaps`, {
      body: configMap('present'),
    })
    expect(exists.status).toBe(409)
    expect(exists.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"present\\" already exists","reason":"AlreadyExists","details":{"name":"present","kind":"configmaps"},"code":409}\n',
    )
    const stale = await raw('PUT', `/api/v1/namespaces/${NS}/configmaps/present`, {
      body: { ...configMap('present'), metadata: { name: 'present', resourceVersion: '1' } },
    })
    expect(stale.status).toBe(409)
    expect(stale.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Operation cannot be fulfilled on configmaps \\"present\\": the object has been modified; please apply your changes to the latest version and try again","reason":"Conflict","details":{"name":"present","kind":"configmaps"},"code":409}\n',
    )
  })

  it('403 of a list leaves the empty name and group out', async () => {
    const res = await raw('GET', '/api/v1/namespaces/default/pods', { bearer: nobody })
    expect(res.status).toBe(403)
    expect(res.text).toBe(
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \\"system:serviceaccount:${NS}:nobody\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"kind":"pods"},"code":403}\n`,
    )
  })

  it('422 lists each cause as reason, message, field', async () => {
    const res = await raw('POST', `/api/v1/namespaces/${NS}/configmaps`, {
      body: configMap('Bad_Name'),
    })
    expect(res.status).toBe(422)
    expect(res.text.endsWith('}\n')).toBe(true)
    const body = JSON.parse(res.text)
    expect(Object.keys(body)).toEqual([
      'kind',
      'apiVersion',
      'metadata',
      'status',
      'message',
      'reason',
      'details',
      'code',
    ])
    expect(Object.keys(body.details)).toEqual(['name', 'kind', 'causes'])
    expect(Object.keys(body.details.causes[0])).toEqual(['reason', 'message', 'field'])
  })

  it('indented on request, without the newline, as json.MarshalIndent writes it', async () => {
    const res = await raw('GET', `/api/v1/namespaces/${NS}/configmaps/missing?pretty=true`)
    expect(res.text).toBe(
      [
        '{',
        '  "kind": "Status",',
        '  "apiVersion": "v1",',
        '  "metadata": {},',
        '  "status": "Failure",',
        '  "message": "configmaps \\"missing\\" not found",',
        '  "reason": "NotFound",',
        '  "details": {',
        '    "name": "missing",',
        '    "kind": "configmaps"',
        '  },',
        '  "code": 404',
        '}',
      ].join('\n'),
    )
  })
})

describe('JSON bodies end with a newline', () => {
  it('an object, a created object and a list', async () => {
    const got = await raw('GET', `/api/v1/namespaces/${NS}/configmaps/present`)
    expect(JSON.parse(got.text).kind).toBe('ConfigMap')
    expect(got.text).toMatch(/\}\n$/)
    expect(got.text.endsWith('}\n\n')).toBe(false)
    const created = await raw('POST', `/api/v1/namespaces/${NS}/configmaps`, {
      body: configMap('created'),
    })
    expect(created.status).toBe(201)
    expect(created.text).toMatch(/\}\n$/)
    const list = await raw('GET', `/api/v1/namespaces/${NS}/configmaps`)
    expect(list.text).toMatch(/^\{"kind":"ConfigMapList",.*\]\}\n$/s)
  })

  it('a Table and discovery', async () => {
    const table = await raw('GET', `/api/v1/namespaces/${NS}/configmaps`, {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    })
    expect(JSON.parse(table.text).kind).toBe('Table')
    expect(table.text).toMatch(/\}\n$/)
    for (const path of ['/api', '/apis', '/api/v1', '/apis/apps/v1']) {
      const doc = await raw('GET', path)
      expect(doc.status).toBe(200)
      expect(doc.text, path).toMatch(/\}\n$/)
      expect(doc.text.endsWith('\n\n'), path).toBe(false)
    }
  })

  it('a 401 refusal', async () => {
    const res = await raw('GET', '/api/v1/namespaces', {
      bearer: 'not-a-token-at-all-0123456789abcdef',
    })
    expect(res.status).toBe(401)
    expect(res.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n',
    )
  })
})
