import { describe, expect, it } from 'vitest'
import { SELF } from 'cloudflare:test'
import { api, configMap, token } from './helpers'

const deploys = '/apis/apps/v1/namespaces/default/deployments'
const cms = '/api/v1/namespaces/default/configmaps'

const deployment = (name: string, env: unknown[] = [{ name: 'EX', value: '1' }]) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'a', image: 'nginx:1', env }] },
    },
  },
})

const envNameBool =
  'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal bool into Go struct field EnvVar.spec.template.spec.containers.env.name of type string'

/** The body of a chunked (non-WebSocket) request, read to its end. */
async function getText(path: string): Promise<{ status: number; text: string }> {
  const res = await SELF.fetch(`https://edgeplane.test${path}`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  return { status: res.status, text: await res.text() }
}

describe('values of the wrong JSON type', () => {
  it('are refused on create whatever fieldValidation says, and nothing is stored', async () => {
    for (const fv of ['Ignore', 'Warn', 'Strict']) {
      const res = await api(
        'POST',
        `${deploys}?fieldValidation=${fv}`,
        deployment('typed-create', [
          { name: 'EX', value: '1' },
          { name: true, value: '2' },
        ]),
      )
      expect(res.status).toBe(400)
      expect(res.json).toMatchObject({
        kind: 'Status',
        reason: 'BadRequest',
        code: 400,
        message: envNameBool,
      })
    }
    expect((await api('GET', `${deploys}/typed-create`)).status).toBe(404)
  })

  it('include Secret data that is not base64, as a user who meant stringData writes it', async () => {
    const res = await api('POST', '/api/v1/namespaces/default/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'plain' },
      data: { password: 'hello' },
    })
    expect(res.status).toBe(400)
    expect(res.json.message).toBe(
      'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 4',
    )
    const ok = await api('POST', '/api/v1/namespaces/default/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'encoded' },
      data: { password: 'aGVsbG8=' },
    })
    expect(ok.status).toBe(201)
  })

  it('are refused on update, on every patch type (the patched result is checked) and on server-side apply', async () => {
    const created = await api('POST', deploys, deployment('typed-write'))
    expect(created.status).toBe(201)
    const put = await api('PUT', `${deploys}/typed-write`, {
      ...created.json,
      spec: { ...created.json.spec, replicas: '3' },
    })
    expect(put.status).toBe(400)
    expect(put.json.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    )

    const merge = await api(
      'PATCH',
      `${deploys}/typed-write`,
      { spec: { strategy: { rollingUpdate: { maxSurge: true } } } },
      'application/merge-patch+json',
    )
    expect(merge.status).toBe(400)
    expect(merge.json.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal bool into Go value of type int32',
    )

    const smp = {
      spec: {
        template: { spec: { containers: [{ name: 'a', env: [{ name: true, value: '2' }] }] } },
      },
    }
    const strategic = await api(
      'PATCH',
      `${deploys}/typed-write`,
      smp,
      'application/strategic-merge-patch+json',
    )
    expect(strategic.status).toBe(400)
    expect(strategic.json.message).toBe(envNameBool)

    const json = await api(
      'PATCH',
      `${deploys}/typed-write`,
      [
        {
          op: 'add',
          path: '/spec/template/spec/containers/0/resources',
          value: { limits: { cpu: 'lots' } },
        },
      ],
      'application/json-patch+json',
    )
    expect(json.status).toBe(400)
    expect(json.json.message).toContain(
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    )

    const apply = await api(
      'PATCH',
      `${deploys}/typed-write?fieldManager=kubectl&force=true`,
      deployment('typed-write', [{ name: true, value: '2' }]),
      'application/apply-patch+yaml',
    )
    expect(apply.status).toBe(400)
    expect(apply.json.message).toBe(envNameBool)

    const stored = await api('GET', `${deploys}/typed-write`)
    expect(stored.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion)
    expect(stored.json.spec.template.spec.containers[0].env).toEqual([{ name: 'EX', value: '1' }])
  })

  it('are refused in a Scale written to the scale subresource', async () => {
    const created = await api('POST', deploys, deployment('typed-scale'))
    expect(created.status).toBe(201)
    const scale = {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'typed-scale', namespace: 'default' },
      spec: { replicas: '3' },
    }
    const put = await api('PUT', `${deploys}/typed-scale/scale`, scale)
    expect(put.status).toBe(400)
    expect(put.json.message).toBe(
      'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32',
    )
    const patch = await api(
      'PATCH',
      `${deploys}/typed-scale/scale`,
      { spec: { replicas: 2.5 } },
      'application/merge-patch+json',
    )
    expect(patch.status).toBe(400)
    expect(patch.json.message).toBe(
      'Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal number 2.5 into Go struct field ScaleSpec.spec.replicas of type int32',
    )
    expect((await api('GET', `${deploys}/typed-scale`)).json.spec.replicas).toBe(1)
  })

  it('are refused when server-side apply creates the object', async () => {
    const res = await api(
      'PATCH',
      `${deploys}/typed-apply?fieldManager=kubectl`,
      deployment('typed-apply', [{ name: 'Y', value: 2 }]),
      'application/apply-patch+yaml',
    )
    expect(res.status).toBe(400)
    expect(res.json.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string',
    )
    expect((await api('GET', `${deploys}/typed-apply`)).status).toBe(404)
  })

  it('are found in an apply configuration before any conflict with another manager', async () => {
    const first = await api(
      'PATCH',
      `${deploys}/typed-owned?fieldManager=one`,
      deployment('typed-owned'),
      'application/apply-patch+yaml',
    )
    expect(first.status).toBe(201)
    const other = deployment('typed-owned', [{ name: 'EX', value: 1 }])
    const res = await api(
      'PATCH',
      `${deploys}/typed-owned?fieldManager=two`,
      other,
      'application/apply-patch+yaml',
    )
    expect(res.status).toBe(400)
    expect(res.json.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string',
    )
  })

  it('leave custom resources to their own structural schema', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.typed.example.com' },
      spec: {
        group: 'typed.example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
              },
            },
          },
        ],
      },
    }
    expect(
      (await api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status,
    ).toBe(201)
    const path = '/apis/typed.example.com/v1/namespaces/default/gadgets'
    const ok = await api('POST', path, {
      apiVersion: 'typed.example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g' },
      spec: { size: 3 },
    })
    expect(ok.status).toBe(201)
    const bad = await api('POST', path, {
      apiVersion: 'typed.example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'h' },
      spec: { size: 'big' },
    })
    expect(bad.status).toBe(422)
    expect(bad.json.message).toContain(
      'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
    )
  })
})

describe('boolean query parameters, converted as kube-apiserver converts them', () => {
  it('watches for watch=True, watch=1 and watch=yes, and lists for watch=false, watch=0 and watch=False', async () => {
    const first = await api('POST', cms, configMap('flag-a'))
    await api('POST', cms, configMap('flag-b'))
    const from = first.json.metadata.resourceVersion
    for (const value of ['True', '1', 'yes', 'true']) {
      const res = await getText(`${cms}?watch=${value}&resourceVersion=${from}&timeoutSeconds=1`)
      expect(res.status).toBe(200)
      const events = res.text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
      expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toContain('ADDED flag-b')
    }
    for (const value of ['false', '0', 'False', 'FALSE']) {
      const res = await api('GET', `${cms}?watch=${value}`)
      expect(res.status).toBe(200)
      expect(res.json.kind).toBe('ConfigMapList')
    }
  })

  it('orphans dependents for orphanDependents=True in the query, as for the same field in the body', async () => {
    await api('POST', cms, configMap('orphan-q'))
    const res = await api('DELETE', `${cms}/orphan-q?orphanDependents=True`)
    expect(res.json.metadata.finalizers).toEqual(['orphan'])
    await api('POST', cms, configMap('orphan-f'))
    const plain = await api('DELETE', `${cms}/orphan-f?orphanDependents=False`)
    expect(plain.json.metadata.finalizers).toBeUndefined()
    expect((await api('GET', `${cms}/orphan-f`)).status).toBe(404)
  })

  it('refuses sendInitialEvents, which is not served, as kube-apiserver does without its WatchList feature', async () => {
    const list = await api('GET', `${cms}?sendInitialEvents=false`)
    expect(list.status).toBe(422)
    expect(list.json).toMatchObject({
      reason: 'Invalid',
      message:
        'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    })
    const watch = await api(
      'GET',
      `${cms}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    )
    expect(watch.status).toBe(422)
    expect(watch.json.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    )
    const matched = await api('GET', `${cms}?watch=1&resourceVersion=1&resourceVersionMatch=Exact`)
    expect(matched.status).toBe(422)
    expect(matched.json.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    )
  })

  it('indents JSON for pretty=true (Go ParseBool, anything else compact) and for curl, but leaves watch streams alone', async () => {
    await api('POST', cms, configMap('pretty'))
    const read = async (query: string, agent = 'edgeplane-test') => {
      const res = await SELF.fetch(`https://edgeplane.test${cms}/pretty${query}`, {
        headers: { Authorization: `Bearer ${token}`, 'User-Agent': agent },
      })
      return res.text()
    }
    const compact = await read('')
    expect(compact.includes('\n  ')).toBe(false)
    const indented = await read('?pretty=true')
    expect(indented).toContain('\n  "kind": "ConfigMap",\n')
    expect(indented).toContain('\n  "metadata": {\n    "name": "pretty",\n')
    expect(JSON.parse(indented)).toEqual(JSON.parse(compact))
    expect(await read('?pretty=1')).toBe(indented)
    expect(await read('?pretty=yes')).toBe(compact)
    expect(await read('', 'curl/8.5.0')).toBe(indented)
    expect(await read('?pretty=false', 'curl/8.5.0')).toBe(compact)
    const missing = await SELF.fetch(`https://edgeplane.test${cms}/absent?pretty=true`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    expect(await missing.text()).toContain('\n  "reason": "NotFound",\n')
    // An answer beyond 4 MiB goes out as it is, not held whole to be indented.
    for (const n of [1, 2, 3, 4, 5])
      expect(
        (
          await api(
            'POST',
            cms,
            configMap(`pretty-big-${n}`, { big: 'x'.repeat(960 * 1024) }, { size: 'big' }),
          )
        ).status,
      ).toBe(201)
    const big = await getText(`${cms}?labelSelector=size%3Dbig&pretty=true`)
    expect(big.text.includes('\n  ')).toBe(false)
    expect(JSON.parse(big.text).items).toHaveLength(5)
    const watch = await getText(
      `${cms}?watch=1&pretty=true&fieldSelector=metadata.name%3Dpretty&timeoutSeconds=1`,
    )
    expect(
      watch.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).object.metadata.name),
    ).toEqual(['pretty'])
  })
})
