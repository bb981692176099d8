import { describe, expect, it } from 'vitest'
import { api, configMap } from './helpers'

// Every decoder refuses a document nested deeper than 100 levels with a 400, before anything
// reaches the store, whether a few levels or thousands too deep; patches may not build one either.
const cms = '/api/v1/namespaces/default/configmaps'
const message = 'the document is nested too deeply: more than 100 levels of objects and arrays'

/** `{"a": {"a": … "x"}}`, `levels` objects deep. */
function nested(levels: number, leaf: unknown = 'x'): unknown {
  let v = leaf
  for (let i = 0; i < levels; i++) v = { a: v }
  return v
}

/** The same as YAML flow collections: `[[[…]]]`, written without any recursion. */
const yamlArrays = (levels: number) => `${'['.repeat(levels)}x${']'.repeat(levels)}`

/** A ConfigMap whose `extra` field holds `levels - 1` nested objects, as JSON text written without recursion. */
const deepConfigMap = (name: string, levels: number) =>
  `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"extra":${'{"a":'.repeat(levels - 1)}"x"${'}'.repeat(levels - 1)}}`

async function expectRefused(res: { status: number; json: any }) {
  expect(res.status, JSON.stringify(res.json).slice(0, 300)).toBe(400)
  expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest' })
  expect(res.json.message).toContain(message)
}

describe('bodies nested deeper than 100 levels', () => {
  it.each([101, 4000, 100_000])(
    'are refused as JSON at %i levels, nothing is stored, and the next create works',
    async (levels) => {
      // A configMap is 1 level, its `extra` field the rest.
      const res = await api('POST', cms, deepConfigMap(`deep-json-${levels}`, levels))
      await expectRefused(res)
      expect((await api('GET', `${cms}/deep-json-${levels}`)).status).toBe(404)
      expect((await api('POST', cms, configMap(`after-json-${levels}`))).status).toBe(201)
    },
  )

  it('are refused as YAML, at a few levels too deep and at thousands', async () => {
    for (const levels of [100, 5000]) {
      const res = await api(
        'POST',
        cms,
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep-yaml-${levels}}\nextra: ${yamlArrays(levels)}\n`,
        'application/yaml',
      )
      await expectRefused(res)
      expect((await api('GET', `${cms}/deep-yaml-${levels}`)).status).toBe(404)
    }
    const ok = await api(
      'POST',
      cms,
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: yaml-99}\nextra: ${yamlArrays(99)}\ndata: {k: v}\n`,
      'application/yaml',
    )
    expect(ok.status).toBe(201)
  })

  it('are accepted at 100 levels, and the object stored can be read, replaced with its managedFields and patched', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'trees.depth.example.com' },
      spec: {
        group: 'depth.example.com',
        scope: 'Namespaced',
        names: { plural: 'trees', singular: 'tree', kind: 'Tree' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
            },
          },
        ],
      },
    }
    expect(
      (await api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status,
    ).toBe(201)
    const trees = '/apis/depth.example.com/v1/namespaces/default/trees'
    // The tree is 1 level, and spec the outermost of the others.
    const tree = (name: string, levels: number) => ({
      apiVersion: 'depth.example.com/v1',
      kind: 'Tree',
      metadata: { name },
      spec: nested(levels - 1),
    })
    await expectRefused(await api('POST', `${trees}?fieldManager=maker`, tree('over-the-cap', 101)))
    const made = await api('POST', `${trees}?fieldManager=maker`, tree('at-the-cap', 100))
    expect(made.status).toBe(201)
    const got = (await api('GET', `${trees}/at-the-cap`)).json
    expect(got.metadata.managedFields.map((m: { manager: string }) => m.manager)).toEqual(['maker'])
    const replaced = await api('PUT', `${trees}/at-the-cap?fieldManager=maker`, {
      ...got,
      metadata: { ...got.metadata, labels: { put: 'yes' } },
    })
    expect(replaced.status, JSON.stringify(replaced.json).slice(0, 300)).toBe(200)
    expect(
      (
        await api(
          'PATCH',
          `${trees}/at-the-cap`,
          { metadata: { labels: { patched: 'yes' } } },
          'application/merge-patch+json',
        )
      ).status,
    ).toBe(200)
    expect(
      (
        await api(
          'PATCH',
          `${trees}/at-the-cap`,
          { spec: { b: nested(98) } },
          'application/merge-patch+json',
        )
      ).status,
    ).toBe(200)
    await expectRefused(
      await api(
        'PATCH',
        `${trees}/at-the-cap`,
        { spec: { b: nested(99) } },
        'application/merge-patch+json',
      ),
    )
  })
})

describe('patches nested deeper than 100 levels', () => {
  const path = `${cms}/patch-base`
  const deep = { metadata: { labels: nested(100) } }

  const cases: [string, string, unknown][] = [
    ['a JSON merge patch', 'application/merge-patch+json', deep],
    ['a strategic merge patch', 'application/strategic-merge-patch+json', deep],
    [
      'a JSON patch value',
      'application/json-patch+json',
      [{ op: 'add', path: '/extra', value: nested(100) }],
    ],
    [
      'an apply configuration',
      'application/apply-patch+yaml',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'patch-base' },
        extra: nested(3000),
      },
    ],
    [
      'a JSON patch that builds depth out of shallow values',
      'application/json-patch+json',
      [
        { op: 'add', path: '/extra', value: nested(60) },
        { op: 'add', path: `/extra${'/a'.repeat(59)}`, value: nested(60) },
      ],
    ],
    [
      'a JSON patch that doubles depth by copying',
      'application/json-patch+json',
      // Each copy replaces the innermost value with the whole: 50, 100, 200, … 12,800 levels.
      [
        { op: 'add', path: '/extra', value: nested(50) },
        ...Array.from({ length: 8 }, (_, i) => ({
          op: 'copy',
          from: '/extra',
          path: `/extra${'/a'.repeat(50 * 2 ** i)}`,
        })),
      ],
    ],
  ]

  it.each(cases)(
    'are refused for %s, the object is unchanged, and the next patch works',
    async (_what, type, patch) => {
      await api('POST', cms, configMap('patch-base'))
      const before = (await api('GET', path)).json.metadata.resourceVersion
      await expectRefused(await api('PATCH', `${path}?fieldManager=deep`, patch, type))
      expect((await api('GET', path)).json.metadata.resourceVersion).toBe(before)
      const next = await api(
        'PATCH',
        path,
        { data: { k: `after-${before}` } },
        'application/merge-patch+json',
      )
      expect(next.status).toBe(200)
    },
  )
})
