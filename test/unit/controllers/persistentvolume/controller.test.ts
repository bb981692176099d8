import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { persistentVolumeController } from '../../../../src/controllers/persistentvolume'
import { findMatchingVolume } from '../../../../src/controllers/persistentvolume/match'
import { LOCAL_PATH_ROOT_ANNOTATION } from '../../../../src/apis/storage/annotations'
import { persistentVolumes, storageClasses } from '../../../../src/controllers/resources'
import { nodes, persistentVolumeClaims, pods } from '../../../../src/controllers/resources'
import { schedulerController } from '../../../../src/controllers/scheduler'
import { MemoryCache, runPass, T0 } from '../../../fixtures/memory-cache'
import { newNode, newPod } from '../../../helpers'
import type { ControllerDefinition } from '../../../../src/controllers/runtime/types'

const pv = (
  name: string,
  storage: string,
  extra: Record<string, unknown> = {},
  labels?: Record<string, string>,
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name, uid: `uid-${name}`, labels },
  spec: {
    capacity: { storage },
    accessModes: ['ReadWriteOnce'],
    persistentVolumeReclaimPolicy: 'Retain',
    storageClassName: 'manual',
    hostPath: { path: `/srv/${name}` },
    ...extra,
  },
  status: { phase: 'Pending' },
})

const pvc = (
  name: string,
  storage: string,
  extra: Record<string, unknown> = {},
  annotations?: Record<string, string>,
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, annotations },
  spec: {
    accessModes: ['ReadWriteOnce'],
    resources: { requests: { storage } },
    storageClassName: 'manual',
    ...extra,
  },
  status: { phase: 'Pending' },
})

const localPath = (): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'edgeplane-local-path' },
  provisioner: 'edgeplane.io/local-path',
  reclaimPolicy: 'Delete',
  volumeBindingMode: 'WaitForFirstConsumer',
})

function cacheWith(...objects: [typeof pods, KubeObject][]): MemoryCache {
  const cache = new MemoryCache()
  for (const [r, o] of objects) cache.write(r, o)
  return cache
}

const controller = persistentVolumeController()
const settle = async (cache: MemoryCache, passes = 5) => {
  for (let i = 0; i < passes; i++) await runPass(controller, cache, T0)
}

describe('persistent volume binding', () => {
  it('binds a claim to the smallest available volume that fits its class, modes, size and selector', async () => {
    const cache = cacheWith(
      [persistentVolumes, pv('tiny', '1Gi', {}, { tier: 'a' })],
      [persistentVolumes, pv('big', '10Gi', {}, { tier: 'a' })],
      [persistentVolumes, pv('mid', '5Gi', {}, { tier: 'a' })],
      [persistentVolumes, pv('other-tier', '3Gi', {}, { tier: 'b' })],
      [persistentVolumes, pv('rox', '3Gi', { accessModes: ['ReadOnlyMany'] }, { tier: 'a' })],
      [persistentVolumeClaims, pvc('want', '2Gi', { selector: { matchLabels: { tier: 'a' } } })],
    )
    await settle(cache)
    const claim = cache.get(persistentVolumeClaims, 'default', 'want')!
    expect((claim.spec as any).volumeName).toBe('mid')
    expect(claim.status).toMatchObject({
      phase: 'Bound',
      capacity: { storage: '5Gi' },
      accessModes: ['ReadWriteOnce'],
    })
    expect(claim.metadata.annotations).toMatchObject({
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    })
    const mid = cache.get(persistentVolumes, undefined, 'mid')!
    expect((mid.spec as any).claimRef).toMatchObject({
      namespace: 'default',
      name: 'want',
      uid: 'uid-want',
    })
    expect((mid.status as any).phase).toBe('Bound')
    for (const name of ['tiny', 'big', 'other-tier', 'rox'])
      expect((cache.get(persistentVolumes, undefined, name)!.status as any).phase).toBe('Available')
  })

  it('honours pre-binding from either side', async () => {
    const cache = cacheWith(
      [
        persistentVolumes,
        pv('reserved', '1Gi', { claimRef: { namespace: 'default', name: 'mine' } }),
      ],
      [persistentVolumes, pv('named', '1Gi')],
      [persistentVolumeClaims, pvc('other', '100Gi')],
      [persistentVolumeClaims, pvc('mine', '1Gi')],
      [persistentVolumeClaims, pvc('asks', '1Gi', { volumeName: 'named' })],
    )
    await settle(cache)
    expect((cache.get(persistentVolumeClaims, 'default', 'mine')!.spec as any).volumeName).toBe(
      'reserved',
    )
    expect((cache.get(persistentVolumeClaims, 'default', 'asks')!.spec as any).volumeName).toBe(
      'named',
    )
    expect((cache.get(persistentVolumes, undefined, 'named')!.spec as any).claimRef.uid).toBe(
      'uid-asks',
    )
    // Nothing is large enough for `other`, and its class does not exist to provision one.
    expect((cache.get(persistentVolumeClaims, 'default', 'other')!.status as any).phase).toBe(
      'Pending',
    )
    expect(
      cache.events.some(
        (e) =>
          e.involved === 'default/other' &&
          e.reason === 'ProvisioningFailed' &&
          e.message === 'storageclass.storage.k8s.io "manual" not found',
      ),
    ).toBe(true)
  })

  it('releases a volume whose claim is gone by its reclaim policy', async () => {
    const cache = cacheWith(
      [persistentVolumes, pv('kept', '1Gi')],
      [persistentVolumes, pv('dropped', '1Gi', { persistentVolumeReclaimPolicy: 'Delete' })],
    )
    cache.write(persistentVolumeClaims, pvc('a', '1Gi', { volumeName: 'kept' }))
    cache.write(persistentVolumeClaims, pvc('b', '1Gi', { volumeName: 'dropped' }))
    await settle(cache)
    expect((cache.get(persistentVolumes, undefined, 'kept')!.status as any).phase).toBe('Bound')
    cache.remove(persistentVolumeClaims, 'default', 'a')
    cache.remove(persistentVolumeClaims, 'default', 'b')
    await settle(cache)
    expect((cache.get(persistentVolumes, undefined, 'kept')!.status as any).phase).toBe('Released')
    // A hostPath volume has no deleter: Failed, as upstream without a deletable plugin.
    expect(cache.get(persistentVolumes, undefined, 'dropped')!.status).toMatchObject({
      phase: 'Failed',
      reason: 'VolumeFailedDelete',
    })
  })

  it('never matches a volume on a node the claim cannot reach', async () => {
    const affinity = {
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            {
              matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['a'] }],
            },
          ],
        },
      },
    }
    const volumes = [pv('on-a', '1Gi', affinity)]
    const claim = pvc('c', '1Gi')
    expect(
      findMatchingVolume(
        claim,
        volumes,
        newNode('a', { labels: { 'kubernetes.io/hostname': 'a' } }),
      )?.metadata.name,
    ).toBe('on-a')
    expect(
      findMatchingVolume(
        claim,
        volumes,
        newNode('b', { labels: { 'kubernetes.io/hostname': 'b' } }),
      ),
    ).toBeUndefined()
  })
})

/** The node the scheduler's pass over the pod binds it to, if it binds it. */
function boundTo(scheduler: ControllerDefinition, cache: MemoryCache): string | undefined {
  const bind = scheduler.reconcile('default/user', cache, T0).actions.find((a) => a.type === 'bind')
  return bind?.type === 'bind' ? bind.nodeName : undefined
}

describe('WaitForFirstConsumer with the scheduler', () => {
  const node = (name: string) => {
    const n = newNode(name, { labels: { 'kubernetes.io/hostname': name } })
    n.metadata.annotations = { [LOCAL_PATH_ROOT_ANNOTATION]: `/var/lib/agent/local-path/${name}` }
    return n
  }
  /** Pod `user`, pending, mounting the claim. */
  const claimant = (claim: string): KubeObject =>
    newPod('user', {
      schedulerName: 'default-scheduler',
      spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: claim } }] },
    })

  it('waits for a consumer, then provisions on the chosen node and binds the pod there', async () => {
    const cache = cacheWith(
      [storageClasses, localPath()],
      [nodes, node('n1')],
      [persistentVolumeClaims, pvc('data', '1Gi', { storageClassName: 'edgeplane-local-path' })],
    )
    const scheduler = schedulerController()
    await settle(cache)
    expect(cache.list(persistentVolumes)).toHaveLength(0)
    expect(cache.events.some((e) => e.reason === 'WaitForFirstConsumer')).toBe(true)

    cache.write(pods, claimant('data'))
    // The pod is not bound before its claim: the claim carries the node instead.
    expect(boundTo(scheduler, cache)).toBeUndefined()
    await runPass(scheduler, cache, T0)
    expect(
      cache.get(persistentVolumeClaims, 'default', 'data')!.metadata.annotations?.[
        'volume.kubernetes.io/selected-node'
      ],
    ).toBe('n1')

    await settle(cache)
    const volume = cache.get(persistentVolumes, undefined, 'pvc-uid-data')!
    expect(volume.spec).toMatchObject({
      local: { path: '/var/lib/agent/local-path/n1/pvc-uid-data' },
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName: 'edgeplane-local-path',
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            {
              matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n1'] }],
            },
          ],
        },
      },
    })
    expect(volume.metadata.finalizers).toEqual(['edgeplane.io/local-path-cleanup'])
    expect((cache.get(persistentVolumeClaims, 'default', 'data')!.status as any).phase).toBe(
      'Bound',
    )

    expect(boundTo(scheduler, cache)).toBe('n1')
  })

  it('keeps a pod off nodes its bound volume cannot be reached from', async () => {
    const affinity = {
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            {
              matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['n2'] }],
            },
          ],
        },
      },
    }
    const cache = cacheWith(
      [nodes, node('n1')],
      [nodes, node('n2')],
      [persistentVolumes, pv('pinned', '1Gi', affinity)],
      [persistentVolumeClaims, pvc('data', '1Gi', { volumeName: 'pinned' })],
    )
    await settle(cache)
    cache.write(pods, claimant('data'))
    expect(boundTo(schedulerController(), cache)).toBe('n2')
  })

  it('reports a missing claim and an unbound Immediate claim as kube-scheduler does', async () => {
    const cache = cacheWith([nodes, node('n1')], [pods, claimant('absent')])
    await runPass(schedulerController(), cache, T0)
    expect(cache.events.at(-1)?.message).toBe(
      '0/1 nodes are available: persistentvolumeclaim "absent" not found. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    )
    cache.write(persistentVolumeClaims, pvc('absent', '1Gi'))
    await runPass(schedulerController(), cache, T0)
    expect(cache.events.at(-1)?.message).toContain(
      'pod has unbound immediate PersistentVolumeClaims',
    )
  })
})
