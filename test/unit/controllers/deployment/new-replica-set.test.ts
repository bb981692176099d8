import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { deploymentController, podTemplateHash } from '../../../../src/controllers/deployment'
import { deployments, pods, replicaSets } from '../../../../src/controllers/resources'
import type { Action } from '../../../../src/controllers/runtime/types'
import { MemoryCache, T0 } from '../../../fixtures/memory-cache'
import { newDeployment, newPod, newReplicaSet } from '../../../helpers'
import { computeHash } from '../../../../src/controllers/shared/pod-template'
import { toDeployment, type ReplicaSet } from '../../../../src/controllers/shared/workloads'

const now = T0
const controller = deploymentController()
const ofType = <T extends Action['type']>(actions: Action[], type: T) =>
  actions.filter((a): a is Extract<Action, { type: T }> => a.type === type)
const reconcile = (cache: MemoryCache, key = 'default/web') => controller.reconcile(key, cache, now)
const hashOf = (d: KubeObject) => podTemplateHash(toDeployment(d))
const annotations = (rs: KubeObject | undefined) => rs?.metadata.annotations ?? {}

/** An old ReplicaSet of the Deployment, with the given image and revision. */
function oldReplicaSet(
  d: KubeObject,
  image: string,
  revision: number,
  f: { replicas?: number; creationTimestamp?: number } = {},
): KubeObject {
  const template = {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'app', image }] },
  }
  const hash = computeHash(template)
  const rs = newReplicaSet(`web-${hash}`, {
    owner: d,
    replicas: f.replicas ?? 0,
    image,
    selector: { app: 'web', 'pod-template-hash': hash },
    annotations: { 'deployment.kubernetes.io/revision': String(revision) },
    creationTimestamp: f.creationTimestamp ?? T0 - revision * 3600_000,
    status: { replicas: f.replicas ?? 0, observedGeneration: 1 },
  })
  return rs
}

describe('deployment: the new ReplicaSet', () => {
  it('creates <name>-<hash> with the hash label on labels, selector and template, the owner reference and the revision annotations', async () => {
    const d = newDeployment('web', {
      replicas: 3,
      annotations: {
        'kubernetes.io/change-cause': 'kubectl set image',
        'kubectl.kubernetes.io/last-applied-configuration': '{}',
      },
    })
    const out = reconcile(new MemoryCache(d))
    const hash = hashOf(d)
    const [create] = ofType(out.actions, 'create')
    expect(create.resource).toEqual(replicaSets)
    expect(create.object).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `web-${hash}`,
        namespace: 'default',
        labels: { app: 'web', 'pod-template-hash': hash },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'web',
            uid: 'uid-web',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
        annotations: {
          'kubernetes.io/change-cause': 'kubectl set image',
          'deployment.kubernetes.io/revision': '1',
          'deployment.kubernetes.io/desired-replicas': '3',
          'deployment.kubernetes.io/max-replicas': '4',
        },
      },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'web', 'pod-template-hash': hash } },
        template: {
          metadata: { labels: { app: 'web', 'pod-template-hash': hash } },
          spec: {
            containers: [
              {
                name: 'app',
                image: 'nginx:1',
                imagePullPolicy: 'IfNotPresent',
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
              },
            ],
            dnsPolicy: 'ClusterFirst',
            enableServiceLinks: true,
            restartPolicy: 'Always',
            schedulerName: 'default-scheduler',
            securityContext: {},
            terminationGracePeriodSeconds: 30,
          },
        },
      },
    })
  })

  it('records the scale-up, the revision and Progressing=NewReplicaSetCreated', async () => {
    const d = newDeployment('web', { replicas: 3 })
    const cache = new MemoryCache(d)
    await cache.applyAll(reconcile(cache).actions)
    const name = `web-${hashOf(d)}`
    expect(cache.events).toEqual([
      {
        involved: 'default/web',
        kind: 'Deployment',
        eventType: 'Normal',
        reason: 'ScalingReplicaSet',
        message: `Scaled up replica set ${name} from 0 to 3`,
      },
    ])
    const stored = cache.get(deployments, 'default', 'web')!
    expect(annotations(stored)['deployment.kubernetes.io/revision']).toBe('1')
    expect(stored.status).toEqual({
      observedGeneration: 1,
      unavailableReplicas: 3,
      conditions: [
        {
          type: 'Progressing',
          status: 'True',
          lastUpdateTime: '2025-06-01T12:00:00Z',
          lastTransitionTime: '2025-06-01T12:00:00Z',
          reason: 'NewReplicaSetCreated',
          message: `Created new replica set "${name}"`,
        },
        {
          type: 'Available',
          status: 'False',
          lastUpdateTime: '2025-06-01T12:00:00Z',
          lastTransitionTime: '2025-06-01T12:00:00Z',
          reason: 'MinimumReplicasUnavailable',
          message: 'Deployment does not have minimum availability.',
        },
      ],
    })
  })

  it.each([
    { name: 'one above the highest old revision', old: [2, 4, 3], want: '5' },
    { name: 'revision 1 when there is no old ReplicaSet', old: [], want: '1' },
  ])('gives the new ReplicaSet $name', ({ old, want }) => {
    const d = newDeployment('web', { image: 'nginx:9' })
    const cache = new MemoryCache(d, ...old.map((r) => oldReplicaSet(d, `nginx:${r}`, r)))
    const [create] = ofType(reconcile(cache).actions, 'create')
    expect(annotations(create.object)['deployment.kubernetes.io/revision']).toBe(want)
  })

  it('reuses the ReplicaSet of an earlier template (rollout undo) with a new, higher revision and the old one in revision-history', async () => {
    const d = newDeployment('web', {
      image: 'nginx:1',
      replicas: 2,
      annotations: { 'deployment.kubernetes.io/revision': '2' },
    })
    const v1 = oldReplicaSet(d, 'nginx:1', 1)
    const v2 = oldReplicaSet(d, 'nginx:2', 2, { replicas: 2 })
    const cache = new MemoryCache(d, v1, v2)
    const out = reconcile(cache)
    expect(ofType(out.actions, 'create')).toEqual([])
    await cache.applyAll(out.actions)
    const reused = cache.get(replicaSets, 'default', v1.metadata.name!)!
    expect(annotations(reused)).toMatchObject({
      'deployment.kubernetes.io/revision': '3',
      'deployment.kubernetes.io/revision-history': '1',
    })
    expect(
      annotations(cache.get(deployments, 'default', 'web'))['deployment.kubernetes.io/revision'],
    ).toBe('3')
    expect((reused.spec as ReplicaSet['spec']).replicas).toBeGreaterThan(0)
  })

  it('copies a changed change-cause and minReadySeconds onto the existing new ReplicaSet in one update', async () => {
    const d = newDeployment('web', {
      minReadySeconds: 5,
      annotations: { 'kubernetes.io/change-cause': 'second' },
    })
    const rs = oldReplicaSet(d, 'nginx:1', 1, { replicas: 3 })
    rs.metadata.annotations = {
      ...rs.metadata.annotations,
      'kubernetes.io/change-cause': 'first',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    }
    const updates = ofType(reconcile(new MemoryCache(d, rs)).actions, 'update')
    expect(updates).toHaveLength(1)
    expect(annotations(updates[0].object)['kubernetes.io/change-cause']).toBe('second')
    expect((updates[0].object as ReplicaSet).spec.minReadySeconds).toBe(5)
    expect(updates[0].object.metadata.resourceVersion).toBe('1')
  })

  it('adopts an orphan ReplicaSet its selector matches, with a patch of the owner references', async () => {
    const d = newDeployment('web')
    const orphan = oldReplicaSet(d, 'nginx:0', 1)
    delete orphan.metadata.ownerReferences
    const [patch] = ofType(reconcile(new MemoryCache(d, orphan)).actions, 'patch')
    expect(patch).toEqual({
      type: 'patch',
      resource: replicaSets,
      namespace: 'default',
      name: orphan.metadata.name,
      patch: {
        metadata: {
          ownerReferences: [
            {
              apiVersion: 'apps/v1',
              kind: 'Deployment',
              name: 'web',
              uid: 'uid-web',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
          resourceVersion: '1',
        },
      },
    })
  })

  it('releases an owned ReplicaSet whose labels no longer match', async () => {
    const d = newDeployment('web')
    const rs = newReplicaSet('stray', { owner: d, selector: { app: 'other' } })
    const [patch] = ofType(reconcile(new MemoryCache(d, rs)).actions, 'patch')
    expect(patch).toMatchObject({
      name: 'stray',
      patch: { metadata: { ownerReferences: null, resourceVersion: '1' } },
    })
  })

  it('raises collisionCount instead of creating when the name is taken by a different ReplicaSet, then uses the salted name', async () => {
    const d = newDeployment('web')
    const squatter = newReplicaSet(`web-${hashOf(d)}`, {
      selector: { app: 'squatter' },
      image: 'other',
    })
    const cache = new MemoryCache(d, squatter)
    const first = reconcile(cache)
    expect(ofType(first.actions, 'create')).toEqual([])
    expect(ofType(first.actions, 'updateStatus')[0].object.status).toMatchObject({
      collisionCount: 1,
    })
    await cache.applyAll(first.actions)
    const [create] = ofType(reconcile(cache).actions, 'create')
    expect(create.object.metadata.name).toBe(`web-${computeHash(toDeployment(d).spec.template, 1)}`)
  })

  it('warns once per generation about a selector that selects everything and does nothing else', async () => {
    const d = newDeployment('web')
    ;(d.spec as { selector: unknown }).selector = {}
    const cache = new MemoryCache(d)
    const out = reconcile(cache)
    expect(out.actions.map((a) => a.type)).toEqual(['updateStatus', 'event'])
    expect(ofType(out.actions, 'event')[0]).toMatchObject({
      eventType: 'Warning',
      reason: 'SelectingAll',
    })
    // The store takes the status write (a status write validates the status, not the spec it cannot change).
    await cache.applyAll(out.actions)
    expect(cache.get(deployments, 'default', 'web')?.status).toMatchObject({
      observedGeneration: d.metadata.generation,
    })
    // Once the status records the generation, the warning is not repeated.
    expect(reconcile(cache)).toEqual({ actions: [] })
  })

  it('does nothing for a Deployment that is gone', async () => {
    expect(reconcile(new MemoryCache())).toEqual({ actions: [] })
  })
})

describe('deployment keysFor', () => {
  const d = newDeployment('web')
  const recreate = newDeployment('batch', { strategy: 'Recreate', labels: { app: 'batch' } })
  const rs = newReplicaSet('web-abc', { owner: d })
  const brs = newReplicaSet('batch-abc', { owner: recreate, selector: { app: 'batch' } })
  const cache = new MemoryCache(d, recreate, rs, brs)

  it.each([
    {
      name: 'a Deployment maps to itself',
      resource: deployments,
      object: d,
      keys: ['default/web'],
    },
    {
      name: 'a ReplicaSet maps to its controlling Deployment',
      resource: replicaSets,
      object: rs,
      keys: ['default/web'],
    },
    {
      name: 'an orphan ReplicaSet maps to the Deployments that select it',
      resource: replicaSets,
      object: newReplicaSet('loose', { selector: { app: 'batch' } }),
      keys: ['default/batch'],
    },
    {
      name: 'a ReplicaSet owned by a replaced Deployment maps to nothing',
      resource: replicaSets,
      object: newReplicaSet('x', { owner: { ...d, metadata: { ...d.metadata, uid: 'gone' } } }),
      keys: [],
    },
    {
      name: 'a pod of a Recreate Deployment maps to it',
      resource: pods,
      object: newPod('p', { owner: brs }),
      keys: ['default/batch'],
    },
    {
      name: 'a pod of a rolling Deployment maps to nothing (its ReplicaSet status carries the news)',
      resource: pods,
      object: newPod('p', { owner: rs }),
      keys: [],
    },
  ])('$name', ({ resource, object, keys }) => {
    expect(controller.watches.keysFor(resource, object, cache)).toEqual(keys)
  })

  it('watches deployments, replicasets and pods and resyncs every Deployment', async () => {
    expect(controller.watches.kinds).toEqual([deployments, replicaSets, pods])
    expect(controller.watches.allKeys(cache).sort()).toEqual(['default/batch', 'default/web'])
  })
})
