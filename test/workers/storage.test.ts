import { SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { api, joinNode } from './helpers'
import { podManifest } from '../helpers'

let n1 = ''
const asNode = (method: string, path: string, body?: unknown, contentType?: string) =>
  api(method, path, body, contentType, { Authorization: `Bearer ${n1}` })
const merge = 'application/merge-patch+json'

const pv = (
  name: string,
  extra: Record<string, unknown> = {},
  labels?: Record<string, string>,
) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name, labels },
  spec: {
    capacity: { storage: '1Gi' },
    accessModes: ['ReadWriteOnce'],
    hostPath: { path: `/srv/${name}` },
    ...extra,
  },
})
const pvc = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
})

beforeAll(async () => {
  n1 = await joinNode('n1')
  expect(
    (
      await api('POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'st' },
      })
    ).status,
  ).toBe(201)
})

describe('PersistentVolume', () => {
  it('is cluster-scoped, defaulted to Retain and Filesystem, and starts Pending', async () => {
    const res = await api('POST', '/api/v1/persistentvolumes', pv('plain'))
    expect(res.status).toBe(201)
    expect(res.json.metadata.namespace).toBeUndefined()
    expect(res.json.spec).toMatchObject({
      persistentVolumeReclaimPolicy: 'Retain',
      volumeMode: 'Filesystem',
    })
    expect(res.json.status).toEqual({ phase: 'Pending' })
  })

  it('refuses a volume without access modes, capacity or source, naming each field', async () => {
    const res = await api('POST', '/api/v1/persistentvolumes', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'bad' },
      spec: { local: { path: '/x' }, hostPath: { path: '/y' }, capacity: { cpu: '1' } },
    })
    expect(res.status).toBe(422)
    const causes = res.json.details.causes.map(
      (c: { field: string; message: string }) => `${c.field}: ${c.message}`,
    )
    expect(causes).toEqual(
      expect.arrayContaining([
        'spec.accessModes: Required value: must specify at least 1 access mode',
        'spec.capacity: Unsupported value: "cpu": supported values: "storage"',
        'spec.local: Forbidden: may not specify more than 1 volume type',
        'spec.nodeAffinity: Required value: Local volume requires node affinity',
      ]),
    )
    expect((await api('GET', '/api/v1/persistentvolumes/bad')).status).toBe(404)
  })

  it('keeps its source once created', async () => {
    const res = await api(
      'PATCH',
      '/api/v1/persistentvolumes/plain',
      { spec: { hostPath: { path: '/elsewhere' } } },
      merge,
    )
    expect(res.status).toBe(422)
    expect(res.json.message).toContain(
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation',
    )
  })
})

describe('StorageClass and DefaultStorageClass admission', () => {
  it('serves the default edgeplane-local-path class, whose provisioner and mode are fixed', async () => {
    const cls = await api('GET', '/apis/storage.k8s.io/v1/storageclasses/edgeplane-local-path')
    expect(cls.status).toBe(200)
    expect(cls.json).toMatchObject({
      provisioner: 'edgeplane.io/local-path',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    })
    expect(cls.json.metadata.annotations['storageclass.kubernetes.io/is-default-class']).toBe(
      'true',
    )
    const res = await api(
      'PATCH',
      '/apis/storage.k8s.io/v1/storageclasses/edgeplane-local-path',
      { provisioner: 'other.io/x' },
      merge,
    )
    expect(res.status).toBe(422)
    expect(res.json.message).toContain(
      'provisioner: Forbidden: updates to provisioner are forbidden.',
    )
  })

  it("stores Rancher local-path-provisioner's own local-path class beside it, which takes no default from it", async () => {
    const rancher = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'local-path' },
      provisioner: 'rancher.io/local-path',
      volumeBindingMode: 'WaitForFirstConsumer',
      reclaimPolicy: 'Delete',
    }
    const res = await api('POST', '/apis/storage.k8s.io/v1/storageclasses', rancher)
    expect(res.status).toBe(201)
    expect(res.json.provisioner).toBe('rancher.io/local-path')
    expect(
      (await api('POST', '/api/v1/namespaces/st/persistentvolumeclaims', pvc('beside-rancher')))
        .json.spec.storageClassName,
    ).toBe('edgeplane-local-path')
    expect((await api('DELETE', '/apis/storage.k8s.io/v1/storageclasses/local-path')).status).toBe(
      200,
    )
  })

  it('gives a claim without a class the default one, and leaves "" alone', async () => {
    expect(
      (await api('POST', '/api/v1/namespaces/st/persistentvolumeclaims', pvc('defaulted'))).json
        .spec.storageClassName,
    ).toBe('edgeplane-local-path')
    expect(
      (
        await api(
          'POST',
          '/api/v1/namespaces/st/persistentvolumeclaims',
          pvc('none', { storageClassName: '' }),
        )
      ).json.spec.storageClassName,
    ).toBe('')
  })

  it('refuses a claim without a storage request and a change to a claim spec', async () => {
    const bad = await api('POST', '/api/v1/namespaces/st/persistentvolumeclaims', {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'bad' },
      spec: { accessModes: ['ReadWriteMany', 'Sometimes'] },
    })
    expect(bad.status).toBe(422)
    expect(bad.json.message).toContain('spec.resources[storage]: Required value')
    expect(bad.json.message).toContain('spec.accessModes: Unsupported value: "Sometimes"')
    const change = await api(
      'PATCH',
      '/api/v1/namespaces/st/persistentvolumeclaims/none',
      { spec: { accessModes: ['ReadWriteMany'] } },
      merge,
    )
    expect(change.status).toBe(422)
    expect(change.json.message).toContain('spec: Forbidden: spec is immutable after creation')
  })

  it('stores a CSIDriver with upstream defaults', async () => {
    const res = await api('POST', '/apis/storage.k8s.io/v1/csidrivers', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: { name: 'hostpath.csi.k8s.io' },
      spec: {},
    })
    expect(res.status).toBe(201)
    expect(res.json.spec).toMatchObject({
      attachRequired: true,
      podInfoOnMount: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
    })
  })
})

describe('the Node authorizer and volumes', () => {
  beforeAll(async () => {
    await api(
      'POST',
      '/api/v1/namespaces/st/persistentvolumeclaims',
      pvc('used', { storageClassName: '' }),
    )
    await api(
      'POST',
      '/api/v1/persistentvolumes',
      pv('for-used', { claimRef: { namespace: 'st', name: 'used' } }),
    )
    await api('POST', '/api/v1/persistentvolumes', pv('unrelated'))
    await api(
      'POST',
      '/api/v1/persistentvolumes',
      pv('n1-local', {}, { 'edgeplane.io/local-path-node': 'n1' }),
    )
    await api(
      'POST',
      '/api/v1/persistentvolumes',
      pv('n2-local', {}, { 'edgeplane.io/local-path-node': 'n2' }),
    )
    const pod = podManifest('user', {
      nodeName: 'n1',
      spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'used' } }] },
    })
    expect((await api('POST', '/api/v1/namespaces/st/pods', pod)).status).toBe(201)
  })

  it("lets a node read the volume of its pod's claim, and no other", async () => {
    expect((await asNode('GET', '/api/v1/namespaces/st/persistentvolumeclaims/used')).status).toBe(
      200,
    )
    expect((await asNode('GET', '/api/v1/persistentvolumes/for-used')).status).toBe(200)
    const other = await asNode('GET', '/api/v1/persistentvolumes/unrelated')
    expect(other.status).toBe(403)
    expect(other.json.message).toContain("no relationship found between node 'n1' and this object")
    // Reading is not writing: the claim's volume may not be patched by the node.
    expect(
      (
        await asNode(
          'PATCH',
          '/api/v1/persistentvolumes/for-used',
          { metadata: { labels: { x: 'y' } } },
          merge,
        )
      ).status,
    ).toBe(403)
  })

  it('lets a node list and finalize only its own local-path volumes', async () => {
    const own = await asNode(
      'GET',
      '/api/v1/persistentvolumes?labelSelector=edgeplane.io%2Flocal-path-node%3Dn1',
    )
    expect(own.status).toBe(200)
    expect(own.json.items.map((v: { metadata: { name: string } }) => v.metadata.name)).toEqual([
      'n1-local',
    ])
    // Watched so over a WebSocket, as the agent follows them.
    const watched = await SELF.fetch(
      'https://edgeplane.test/api/v1/persistentvolumes?watch=true&labelSelector=edgeplane.io%2Flocal-path-node%3Dn1',
      { headers: { Authorization: `Bearer ${n1}`, Upgrade: 'websocket' } },
    )
    expect(watched.status).toBe(101)
    watched.webSocket!.accept()
    watched.webSocket!.close(1000, 'done')
    for (const path of [
      '/api/v1/persistentvolumes',
      '/api/v1/persistentvolumes?labelSelector=edgeplane.io%2Flocal-path-node%3Dn2',
      '/api/v1/persistentvolumes?watch=true',
    ]) {
      expect([path, (await asNode('GET', path)).status]).toEqual([path, 403])
    }
    expect(
      (
        await asNode(
          'PATCH',
          '/api/v1/persistentvolumes/n1-local',
          { metadata: { finalizers: [] } },
          merge,
        )
      ).status,
    ).toBe(200)
    // Only its finalizers: NodeRestriction refuses any other change.
    const relabel = await asNode(
      'PATCH',
      '/api/v1/persistentvolumes/n1-local',
      { metadata: { labels: { 'edgeplane.io/local-path-node': 'n2' } } },
      merge,
    )
    expect(relabel.status).toBe(403)
    expect(relabel.json.message).toBe(
      'persistentvolumes "n1-local" is forbidden: node "n1" may only change the finalizers of persistentvolume "n1-local"',
    )
    expect(
      (
        await asNode(
          'PATCH',
          '/api/v1/persistentvolumes/n1-local',
          { spec: { claimRef: { namespace: 'st', name: 'x' } } },
          merge,
        )
      ).status,
    ).toBe(403)
    expect(
      (
        await asNode(
          'PATCH',
          '/api/v1/persistentvolumes/n2-local',
          { metadata: { finalizers: [] } },
          merge,
        )
      ).status,
    ).toBe(403)
    expect((await asNode('DELETE', '/api/v1/persistentvolumes/n1-local')).status).toBe(403)
  })
})
