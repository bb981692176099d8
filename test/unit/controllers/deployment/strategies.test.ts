import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { deploymentController } from '../../../../src/controllers/deployment'
import { deployments, pods, replicaSets } from '../../../../src/controllers/resources'
import { replicaSetController } from '../../../../src/controllers/replicaset'
import type { Action } from '../../../../src/controllers/runtime/types'
import {
  finishTerminatingPods,
  markPendingPodsReady,
  MemoryCache,
  runPass,
  settle,
  T0,
} from '../../../fixtures/memory-cache'
import { newDeployment, newReplicaSet, type DeploymentFixture } from '../../../helpers'
import { editDeployment, rolloutStatusMessage, setImage } from '../../../fixtures/deployments'
import type { ReplicaSet } from '../../../../src/controllers/shared/workloads'
import type { Condition } from '../../../../src/apimachinery/conditions'

const ofType = <T extends Action['type']>(actions: Action[], type: T) =>
  actions.filter((a): a is Extract<Action, { type: T }> => a.type === type)
const replicasOf = (rs: KubeObject) => (rs.spec as ReplicaSet['spec']).replicas ?? 0
const imageOf = (rs: KubeObject) =>
  ((rs.spec as ReplicaSet['spec']).template?.spec?.containers as { image: string }[])[0].image
const byImage = (cache: MemoryCache, image: string) =>
  cache.list(replicaSets).find((rs) => imageOf(rs) === image)
const deployment = (cache: MemoryCache) => cache.get(deployments, 'default', 'web')!
const progressing = (cache: MemoryCache) =>
  ((deployment(cache).status as { conditions?: Condition[] }).conditions ?? []).find(
    (c) => c.type === 'Progressing',
  )

async function rolledOut(f: DeploymentFixture) {
  const cache = new MemoryCache(newDeployment('web', f))
  const dc = deploymentController()
  const rc = replicaSetController()
  const { now } = await settle(cache, [dc, rc], T0)
  return { cache, dc, rc, now }
}

describe('Recreate', () => {
  it('scales the old ReplicaSet to 0, waits until its pods are gone, then creates the new one at full size', async () => {
    const { cache, dc, rc, now } = await rolledOut({ replicas: 3, strategy: 'Recreate' })
    setImage(cache, 'web', 'nginx:2')
    let t = now + 1000

    await runPass(dc, cache, t)
    expect(replicasOf(byImage(cache, 'nginx:1')!)).toBe(0)
    expect(byImage(cache, 'nginx:2')).toBeUndefined()

    await runPass(rc, cache, t)
    await runPass(rc, cache, t)
    expect(byImage(cache, 'nginx:1')!.status).toMatchObject({ replicas: 0 })
    expect(cache.list(pods).every((p) => p.metadata.deletionTimestamp)).toBe(true)
    await runPass(dc, cache, (t += 1000))
    expect(byImage(cache, 'nginx:2')).toBeUndefined()
    expect(rolloutStatusMessage(deployment(cache))).toBe(
      'Waiting for deployment "web" rollout to finish: 0 out of 3 new replicas have been updated...',
    )

    await finishTerminatingPods(cache)
    await runPass(dc, cache, (t += 1000))
    expect(replicasOf(byImage(cache, 'nginx:2')!)).toBe(3)

    await settle(cache, [dc, rc], t + 1000)
    expect(cache.list(pods).map(imageOfPod)).toEqual(['nginx:2', 'nginx:2', 'nginx:2'])
    expect(rolloutStatusMessage(deployment(cache))).toBe('deployment "web" successfully rolled out')
    expect(
      cache.events
        .filter((e) => e.reason === 'ScalingReplicaSet')
        .map((e) => e.message.replace(/ web-\w+ /, ' RS ')),
    ).toEqual([
      'Scaled up replica set RS from 0 to 3',
      'Scaled down replica set RS from 3 to 0',
      'Scaled up replica set RS from 0 to 3',
    ])
  })

  it('counts Available against all replicas: Recreate has no maxUnavailable', async () => {
    const { cache, dc, rc, now } = await rolledOut({ replicas: 2, strategy: 'Recreate' })
    setImage(cache, 'web', 'nginx:2')
    await runPass(dc, cache, now + 1000)
    await runPass(rc, cache, now + 1000)
    await runPass(rc, cache, now + 1000)
    await runPass(dc, cache, now + 2000)
    const available = (deployment(cache).status as { conditions: Condition[] }).conditions.find(
      (c) => c.type === 'Available',
    )
    expect(available).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' })
  })
})

const imageOfPod = (p: KubeObject) =>
  (p.spec as { containers: { image: string }[] }).containers[0].image

describe('paused', () => {
  it('does not roll out a new template while paused, still scales, and rolls out once resumed', async () => {
    const { cache, dc, rc, now } = await rolledOut({ replicas: 3 })
    editDeployment(cache, 'web', (spec) => (spec.paused = true))
    setImage(cache, 'web', 'nginx:2')
    let { now: t } = await settle(cache, [dc, rc], now + 1000)
    expect(byImage(cache, 'nginx:2')).toBeUndefined()
    expect(progressing(cache)).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentPaused',
      message: 'Deployment is paused',
    })
    expect((deployment(cache).status as { observedGeneration: number }).observedGeneration).toBe(
      deployment(cache).metadata.generation,
    )

    editDeployment(cache, 'web', (spec) => (spec.replicas = 5))
    ;({ now: t } = await settle(cache, [dc, rc], t + 1000))
    expect(replicasOf(byImage(cache, 'nginx:1')!)).toBe(5)
    expect(byImage(cache, 'nginx:2')).toBeUndefined()
    expect(cache.list(pods)).toHaveLength(5)

    editDeployment(cache, 'web', (spec) => delete spec.paused)
    const out = dc.reconcile('default/web', cache, t + 1000)
    expect(ofType(out.actions, 'updateStatus')[0].object.status).toMatchObject({
      conditions: expect.arrayContaining([
        expect.objectContaining({ type: 'Progressing', reason: 'NewReplicaSetCreated' }),
      ]),
    })
    await settle(cache, [dc, rc], t + 1000)
    expect(replicasOf(byImage(cache, 'nginx:2')!)).toBe(5)
    expect(replicasOf(byImage(cache, 'nginx:1')!)).toBe(0)
    expect(progressing(cache)).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' })
  })

  it('goes from DeploymentPaused straight back to NewReplicaSetAvailable when a complete Deployment is resumed, then stays quiet', async () => {
    const { cache, dc, rc, now } = await rolledOut({ replicas: 2 })
    editDeployment(cache, 'web', (spec) => (spec.paused = true))
    const { now: t } = await settle(cache, [dc, rc], now + 1000)
    editDeployment(cache, 'web', (spec) => delete spec.paused)
    const out = dc.reconcile('default/web', cache, t + 1000)
    const status = ofType(out.actions, 'updateStatus')[0].object.status as {
      conditions: Condition[]
    }
    expect(status.conditions.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
    })
    await cache.applyAll(out.actions)
    expect(dc.reconcile('default/web', cache, t + 2000)).toEqual({ actions: [] })
  })
})

describe('a Deployment being deleted', () => {
  it('only gets its status refreshed: no new ReplicaSet, no scaling', async () => {
    const d = newDeployment('web', { replicas: 3 })
    d.metadata.deletionTimestamp = '2025-06-01T11:59:00Z'
    const out = deploymentController().reconcile('default/web', new MemoryCache(d), T0)
    expect(out.actions.map((a) => a.type)).toEqual(['updateStatus'])
  })
})

describe('scaling', () => {
  it('scales the only active ReplicaSet to the new replica count (a scaling event)', async () => {
    const { cache, dc, rc, now } = await rolledOut({ replicas: 3 })
    editDeployment(cache, 'web', (spec) => (spec.replicas = 6))
    const out = dc.reconcile('default/web', cache, now + 1000)
    const [update] = ofType(out.actions, 'update')
    expect(replicasOf(update.object)).toBe(6)
    expect(update.object.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/desired-replicas': '6',
      'deployment.kubernetes.io/max-replicas': '8',
    })
    await settle(cache, [dc, rc], now + 1000)
    expect(cache.list(pods)).toHaveLength(6)
    expect(rolloutStatusMessage(deployment(cache))).toBe('deployment "web" successfully rolled out')
  })

  it('scales mid-rollout proportionally to each ReplicaSet’s size, as upstream', async () => {
    const d = newDeployment('web', {
      replicas: 20,
      generation: 3,
      status: { observedGeneration: 2, replicas: 13 },
    })
    const sized = {
      'deployment.kubernetes.io/desired-replicas': '10',
      'deployment.kubernetes.io/max-replicas': '13',
    }
    const old = newReplicaSet('web-old', {
      owner: d,
      replicas: 8,
      image: 'nginx:0',
      annotations: { ...sized, 'deployment.kubernetes.io/revision': '1' },
      selector: { app: 'web', v: '0' },
      creationTimestamp: T0 - 7200_000,
    })
    const fresh = newReplicaSet('web-new', {
      owner: d,
      replicas: 5,
      image: 'nginx:1',
      annotations: { ...sized, 'deployment.kubernetes.io/revision': '2' },
      selector: { app: 'web', v: '1' },
    })
    ;(fresh.spec as ReplicaSet['spec']).template!.metadata!.labels = { app: 'web' }
    const cache = new MemoryCache(d, old, fresh)
    const out = deploymentController().reconcile('default/web', cache, T0)
    expect(
      ofType(out.actions, 'update').map((u) => [
        u.object.metadata.name,
        replicasOf(u.object),
        u.object.metadata.annotations?.['deployment.kubernetes.io/max-replicas'],
      ]),
    ).toEqual([
      ['web-old', 15, '25'],
      ['web-new', 10, '25'],
    ])
    expect(ofType(out.actions, 'event').map((e) => e.message)).toEqual([
      'Scaled up replica set web-old from 8 to 15',
      'Scaled up replica set web-new from 5 to 10',
    ])
  })
})

describe('revision history', () => {
  /** A complete Deployment (revision 7) with old ReplicaSets of revisions 1..6, scaled down and observed. */
  function withHistory(limit: number, tweak: (old: KubeObject[]) => void = () => {}) {
    const d = newDeployment('web', {
      replicas: 1,
      revisionHistoryLimit: limit,
      image: 'nginx:7',
      status: {
        observedGeneration: 1,
        replicas: 1,
        updatedReplicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
      },
    })
    const sized = {
      'deployment.kubernetes.io/desired-replicas': '1',
      'deployment.kubernetes.io/max-replicas': '2',
    }
    const current = newReplicaSet('web-7', {
      owner: d,
      replicas: 1,
      image: 'nginx:7',
      annotations: { ...sized, 'deployment.kubernetes.io/revision': '7' },
      status: { replicas: 1, availableReplicas: 1, observedGeneration: 1 },
    })
    ;(current.spec as ReplicaSet['spec']).template!.metadata!.labels = { app: 'web' }
    const old = [1, 2, 3, 4, 5, 6].map((r) =>
      newReplicaSet(`web-${r}`, {
        owner: d,
        replicas: 0,
        image: `nginx:${r}`,
        annotations: { 'deployment.kubernetes.io/revision': String(r) },
        creationTimestamp: T0 - (10 - r) * 3600_000,
        status: { replicas: 0, observedGeneration: 1 },
      }),
    )
    tweak(old)
    return new MemoryCache(d, current, ...old)
  }
  const deleted = (cache: MemoryCache) =>
    ofType(deploymentController().reconcile('default/web', cache, T0).actions, 'delete').map(
      (a) => a.name,
    )

  it.each([
    {
      name: 'deletes the oldest revisions beyond the limit',
      limit: 2,
      tweak: () => {},
      want: ['web-1', 'web-2', 'web-3', 'web-4'],
    },
    { name: 'keeps everything within the limit', limit: 6, tweak: () => {}, want: [] },
    {
      name: 'deletes every old one with a limit of 0',
      limit: 0,
      tweak: () => {},
      want: ['web-1', 'web-2', 'web-3', 'web-4', 'web-5', 'web-6'],
    },
    {
      name: 'skips one that still has pods',
      limit: 3,
      tweak: (old: KubeObject[]) => (old[0].status = { replicas: 1, observedGeneration: 1 }),
      want: ['web-2', 'web-3'],
    },
    {
      name: 'skips one whose latest spec is not observed yet',
      limit: 3,
      tweak: (old: KubeObject[]) => (old[1].metadata.generation = 2),
      want: ['web-1', 'web-3'],
    },
    {
      name: 'leaves out one already being deleted',
      limit: 3,
      tweak: (old: KubeObject[]) => (old[0].metadata.deletionTimestamp = '2025-06-01T11:00:00Z'),
      want: ['web-2', 'web-3'],
    },
  ])('$name', ({ limit, tweak, want }) => {
    expect(deleted(withHistory(limit, tweak))).toEqual(want)
  })

  it('deletes with a uid precondition', async () => {
    const [del] = ofType(
      deploymentController().reconcile('default/web', withHistory(5), T0).actions,
      'delete',
    )
    expect(del).toEqual({
      type: 'delete',
      resource: replicaSets,
      namespace: 'default',
      name: 'web-1',
      preconditions: { uid: 'uid-web-1' },
    })
  })
})

describe('progress deadline', () => {
  it('requeues until the deadline, reports ProgressDeadlineExceeded, and recovers once pods become available', async () => {
    const cache = new MemoryCache(
      newDeployment('web', { replicas: 2, progressDeadlineSeconds: 60 }),
    )
    const dc = deploymentController()
    const rc = replicaSetController()
    await runPass(dc, cache, T0)
    await runPass(rc, cache, T0)
    await runPass(rc, cache, T0)

    const progress = dc.reconcile('default/web', cache, T0 + 10_000)
    expect(progress.requeueAfterMs).toBe(60_001)
    await cache.applyAll(progress.actions)
    expect(progressing(cache)).toMatchObject({
      status: 'True',
      reason: 'ReplicaSetUpdated',
      lastUpdateTime: '2025-06-01T12:00:10Z',
      lastTransitionTime: '2025-06-01T12:00:00Z',
    })

    expect(dc.reconcile('default/web', cache, T0 + 40_000)).toEqual({
      actions: [],
      requeueAfterMs: 30_001,
    })

    const late = dc.reconcile('default/web', cache, T0 + 70_001)
    expect(late.requeueAfterMs).toBeUndefined()
    await cache.applyAll(late.actions)
    const rsName = cache.list(replicaSets)[0].metadata.name
    expect(progressing(cache)).toEqual({
      type: 'Progressing',
      status: 'False',
      lastUpdateTime: '2025-06-01T12:01:10Z',
      lastTransitionTime: '2025-06-01T12:01:10Z',
      reason: 'ProgressDeadlineExceeded',
      message: `ReplicaSet "${rsName}" has timed out progressing.`,
    })
    expect(rolloutStatusMessage(deployment(cache))).toBe(
      'deployment "web" exceeded its progress deadline',
    )

    markPendingPodsReady(cache, T0 + 80_000)
    await settle(cache, [dc, rc], T0 + 80_000)
    expect(progressing(cache)).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable' })
    expect(rolloutStatusMessage(deployment(cache))).toBe('deployment "web" successfully rolled out')
  })

  it('has no Progressing condition and no requeue without a deadline', async () => {
    const cache = new MemoryCache(
      newDeployment('web', { replicas: 1, progressDeadlineSeconds: null }),
    )
    const out = deploymentController().reconcile('default/web', cache, T0)
    expect(out.requeueAfterMs).toBeUndefined()
    const status = ofType(out.actions, 'updateStatus')[0].object.status as {
      conditions: Condition[]
    }
    expect(status.conditions.map((c) => c.type)).toEqual(['Available'])
  })

  it('copies the new ReplicaSet’s ReplicaFailure condition onto the Deployment', async () => {
    const { cache, dc, now } = await rolledOut({ replicas: 1 })
    const rs = cache.list(replicaSets)[0]
    const failure = {
      type: 'ReplicaFailure',
      status: 'True',
      lastTransitionTime: '2025-06-01T11:59:00Z',
      reason: 'FailedCreate',
      message: 'exceeded quota',
    }
    cache.write(replicaSets, { ...rs, status: { ...(rs.status as object), conditions: [failure] } })
    const status = ofType(dc.reconcile('default/web', cache, now + 1000).actions, 'updateStatus')[0]
      .object.status as { conditions: Condition[] }
    expect(status.conditions.find((c) => c.type === 'ReplicaFailure')).toEqual({
      type: 'ReplicaFailure',
      status: 'True',
      lastUpdateTime: '2025-06-01T11:59:00Z',
      lastTransitionTime: '2025-06-01T11:59:00Z',
      reason: 'FailedCreate',
      message: 'exceeded quota',
    })
  })
})
