import { beforeAll, describe, expect, it } from 'vitest'
import { env, evictDurableObject, runInDurableObject } from 'cloudflare:test'
import { api } from './helpers'
import { podManifest } from '../helpers'

const ns = 'refs'
const pods = () => env.KIND_STORE.get(env.KIND_STORE.idFromName('core/pods'))
const refers = (node: string, resource: string, name: string, namespace = ns) =>
  pods().nodeRefers(node, resource, namespace, name)

/** A pod naming one object of every kind of reference the Node authorizer follows. */
function referencingPod(name: string, nodeName?: string) {
  return podManifest(name, {
    nodeName,
    spec: {
      imagePullSecrets: [{ name: `${name}-pull` }],
      initContainers: [
        {
          name: 'init',
          image: 'busybox',
          envFrom: [{ configMapRef: { name: `${name}-init-cm` } }],
        },
      ],
      containers: [
        {
          name: 'main',
          image: 'busybox',
          env: [
            { name: 'A', valueFrom: { secretKeyRef: { name: `${name}-env-secret`, key: 'k' } } },
            { name: 'B', valueFrom: { configMapKeyRef: { name: `${name}-env-cm`, key: 'k' } } },
          ],
          envFrom: [{ secretRef: { name: `${name}-envfrom-secret` } }],
        },
      ],
      volumes: [
        { name: 's', secret: { secretName: `${name}-vol-secret` } },
        { name: 'c', configMap: { name: `${name}-vol-cm` } },
        {
          name: 'p',
          projected: {
            sources: [
              { secret: { name: `${name}-proj-secret` } },
              { configMap: { name: `${name}-proj-cm` } },
            ],
          },
        },
        { name: 'claim', persistentVolumeClaim: { claimName: `${name}-claim` } },
      ],
    },
  })
}

const references = (name: string): [string, string][] => [
  ['secrets', `${name}-pull`],
  ['configmaps', `${name}-init-cm`],
  ['secrets', `${name}-env-secret`],
  ['configmaps', `${name}-env-cm`],
  ['secrets', `${name}-envfrom-secret`],
  ['secrets', `${name}-vol-secret`],
  ['configmaps', `${name}-vol-cm`],
  ['secrets', `${name}-proj-secret`],
  ['configmaps', `${name}-proj-cm`],
  ['persistentvolumeclaims', `${name}-claim`],
]

beforeAll(async () => {
  expect(
    (
      await api('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns },
      })
    ).status,
  ).toBe(201)
})

describe("the pods store's index of what nodes may read", () => {
  it('holds every reference of a bound pod, for its node only', async () => {
    expect(
      (await api('POST', `/api/v1/namespaces/${ns}/pods`, referencingPod('a', 'n1'))).status,
    ).toBe(201)
    for (const [resource, name] of references('a')) {
      expect([resource, name, await refers('n1', resource, name)]).toEqual([resource, name, true])
      expect(await refers('n2', resource, name)).toBe(false)
      expect(await refers('n1', resource, name, 'default')).toBe(false)
    }
    // Not a reference: a name the pod does not use, or the right name as another kind.
    expect(await refers('n1', 'secrets', 'a-vol-cm')).toBe(false)
    expect(await refers('n1', 'secrets', 'unrelated')).toBe(false)
  })

  it('follows a pod from unbound to bound, through updates, to deleted', async () => {
    expect((await api('POST', `/api/v1/namespaces/${ns}/pods`, referencingPod('b'))).status).toBe(
      201,
    )
    expect(await refers('n1', 'secrets', 'b-vol-secret')).toBe(false)
    const bound = await api('POST', `/api/v1/namespaces/${ns}/pods/b/binding`, {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'b' },
      target: { kind: 'Node', name: 'n1' },
    })
    expect(bound.status).toBe(201)
    expect(await refers('n1', 'secrets', 'b-vol-secret')).toBe(true)
    const status = await api(
      'PATCH',
      `/api/v1/namespaces/${ns}/pods/b/status`,
      { status: { phase: 'Running' } },
      'application/merge-patch+json',
    )
    expect(status.status).toBe(200)
    expect(await refers('n1', 'secrets', 'b-vol-secret')).toBe(true)
    // Two pods sharing a secret: it stays readable until the last of them is gone.
    const shared = {
      ...referencingPod('c', 'n1'),
      spec: {
        nodeName: 'n1',
        containers: [{ name: 'main', image: 'busybox' }],
        volumes: [{ name: 's', secret: { secretName: 'b-vol-secret' } }],
      },
    }
    expect((await api('POST', `/api/v1/namespaces/${ns}/pods`, shared)).status).toBe(201)
    expect(
      (await api('DELETE', `/api/v1/namespaces/${ns}/pods/b?gracePeriodSeconds=0`)).status,
    ).toBe(200)
    expect(await refers('n1', 'secrets', 'b-vol-secret')).toBe(true)
    expect(await refers('n1', 'configmaps', 'b-vol-cm')).toBe(false)
    expect(
      (await api('DELETE', `/api/v1/namespaces/${ns}/pods/c?gracePeriodSeconds=0`)).status,
    ).toBe(200)
    expect(await refers('n1', 'secrets', 'b-vol-secret')).toBe(false)
  })

  it('keeps a pod that is being deleted gracefully until it is gone', async () => {
    expect(
      (await api('POST', `/api/v1/namespaces/${ns}/pods`, referencingPod('d', 'n1'))).status,
    ).toBe(201)
    expect((await api('DELETE', `/api/v1/namespaces/${ns}/pods/d`)).status).toBe(202)
    expect(await refers('n1', 'secrets', 'd-vol-secret')).toBe(true)
    expect(
      (await api('DELETE', `/api/v1/namespaces/${ns}/pods/d?gracePeriodSeconds=0`)).status,
    ).toBe(200)
    expect(await refers('n1', 'secrets', 'd-vol-secret')).toBe(false)
  })

  it('survives a restart, and is built from the stored pods by a store that predates it', async () => {
    expect(
      (await api('POST', `/api/v1/namespaces/${ns}/pods`, referencingPod('e', 'n3'))).status,
    ).toBe(201)
    await evictDurableObject(pods())
    expect(await refers('n3', 'configmaps', 'e-env-cm')).toBe(true)
    // As a store written before the index existed: no table, no mark that it was built.
    await runInDurableObject(pods(), (_instance, state) => {
      state.storage.sql.exec('DROP TABLE node_refs')
      state.storage.sql.exec("DELETE FROM meta WHERE name = 'node_refs_built'")
    })
    await evictDurableObject(pods())
    expect(await refers('n3', 'configmaps', 'e-env-cm')).toBe(true)
    expect(await refers('n1', 'secrets', 'a-pull')).toBe(true)
    expect(await refers('n1', 'secrets', 'b-vol-secret')).toBe(false)
  })
})
