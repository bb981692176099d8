import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { deploymentController } from '../../../../src/controllers/deployment'
import { resolveFenceposts } from '../../../../src/controllers/deployment/fenceposts'
import { newRSNewReplicas } from '../../../../src/controllers/deployment/replica-sets'
import { maxScaledDown } from '../../../../src/controllers/deployment/rolling'
import { deployments, pods, replicaSets } from '../../../../src/controllers/resources'
import { replicaSetController } from '../../../../src/controllers/replicaset'
import { isPodReady } from '../../../../src/controllers/shared/pods'
import { MemoryCache, runPass, settle, T0 } from '../../../fixtures/memory-cache'
import { newDeployment, newReplicaSet, type DeploymentFixture } from '../../../helpers'
import { rolloutStatusMessage, setImage } from '../../../fixtures/deployments'
import {
  toDeployment,
  toReplicaSet,
  type ReplicaSet,
} from '../../../../src/controllers/shared/workloads'

const replicasOf = (rs: KubeObject) => (rs.spec as ReplicaSet['spec']).replicas ?? 0
const byImage = (cache: MemoryCache, image: string) =>
  cache
    .list(replicaSets)
    .find(
      (rs) =>
        ((rs.spec as ReplicaSet['spec']).template?.spec?.containers as { image: string }[])[0]
          .image === image,
    )

/** A Deployment rolled out with nginx:1 and every pod ready, plus both controllers. */
async function rolledOut(f: DeploymentFixture) {
  const cache = new MemoryCache(newDeployment('web', f))
  const controllers = [deploymentController(), replicaSetController()]
  const { now } = await settle(cache, controllers, T0)
  return { cache, controllers, now }
}

describe('rollout step math', () => {
  it.each([
    {
      name: '25%/25% of 10',
      surge: '25%',
      unavailable: '25%',
      replicas: 10,
      want: { surge: 3, unavailable: 2 },
    },
    { name: 'ints', surge: 2, unavailable: 1, replicas: 5, want: { surge: 2, unavailable: 1 } },
    {
      name: '50%/50% of 3 (surge rounds up, unavailable down)',
      surge: '50%',
      unavailable: '50%',
      replicas: 3,
      want: { surge: 2, unavailable: 1 },
    },
    {
      name: '25%/25% of 1',
      surge: '25%',
      unavailable: '25%',
      replicas: 1,
      want: { surge: 1, unavailable: 0 },
    },
    {
      name: 'both rounding to 0 (one may be unavailable)',
      surge: 0,
      unavailable: '25%',
      replicas: 1,
      want: { surge: 0, unavailable: 1 },
    },
    {
      name: '0% surge',
      surge: '0%',
      unavailable: '30%',
      replicas: 10,
      want: { surge: 0, unavailable: 3 },
    },
  ])('resolves the fenceposts for $name', ({ surge, unavailable, replicas, want }) => {
    expect(resolveFenceposts(surge, unavailable, replicas)).toEqual(want)
  })

  it.each([
    {
      name: 'surges the new ReplicaSet up to spec + maxSurge in total',
      replicas: 10,
      maxSurge: '25%',
      all: [10, 0],
      want: 3,
    },
    {
      name: 'never beyond spec.replicas for the new ReplicaSet',
      replicas: 10,
      maxSurge: '25%',
      all: [2, 9],
      want: 10,
    },
    {
      name: 'not at all when the total is at the ceiling',
      replicas: 10,
      maxSurge: 2,
      all: [10, 2],
      want: 2,
    },
    { name: 'by the int surge', replicas: 4, maxSurge: 1, all: [4, 0], want: 1 },
  ])('NewRSNewReplicas $name', ({ replicas, maxSurge, all, want }) => {
    const d = toDeployment(newDeployment('web', { replicas, maxSurge }))
    const [old, fresh] = all.map((n, i) => toReplicaSet(newReplicaSet(`rs${i}`, { replicas: n })))
    expect(newRSNewReplicas(d, [old, fresh], fresh)).toBe(want)
  })

  it('gives Recreate all replicas at once', async () => {
    const d = toDeployment(newDeployment('web', { replicas: 4, strategy: 'Recreate' }))
    const [old, fresh] = [5, 0].map((n, i) =>
      toReplicaSet(newReplicaSet(`rs${i}`, { replicas: n })),
    )
    expect(newRSNewReplicas(d, [old, fresh], fresh)).toBe(4)
  })

  it('lets unavailable new pods block further old scale-down (maxScaledDown)', async () => {
    const d = toDeployment(newDeployment('web', { replicas: 10, maxSurge: 3, maxUnavailable: 2 }))
    const old = toReplicaSet(
      newReplicaSet('old', { replicas: 8, status: { replicas: 8, availableReplicas: 8 } }),
    )
    const fresh = toReplicaSet(
      newReplicaSet('new', { replicas: 5, status: { replicas: 5, availableReplicas: 0 } }),
    )
    expect(maxScaledDown(d, [old, fresh], fresh)).toBe(0)
    fresh.status = { replicas: 5, availableReplicas: 4 }
    expect(maxScaledDown(d, [old, fresh], fresh)).toBe(4)
  })

  it.each([
    {
      name: '10 replicas, 25%/25%: surges to 13, then old down to 8',
      replicas: 10,
      maxSurge: '25%',
      maxUnavailable: '25%',
      newRS: 3,
      oldRS: 8,
    },
    {
      name: '10 replicas, surge 2 / unavailable 0: surges, keeps all old',
      replicas: 10,
      maxSurge: 2,
      maxUnavailable: 0,
      newRS: 2,
      oldRS: 10,
    },
    {
      name: '10 replicas, surge 0 / unavailable 3: old down first',
      replicas: 10,
      maxSurge: 0,
      maxUnavailable: 3,
      newRS: 0,
      oldRS: 7,
    },
    {
      name: '10 replicas, 50%/50%',
      replicas: 10,
      maxSurge: '50%',
      maxUnavailable: '50%',
      newRS: 5,
      oldRS: 5,
    },
    {
      name: '3 replicas, 25%/25% (1 surge, 0 unavailable)',
      replicas: 3,
      maxSurge: '25%',
      maxUnavailable: '25%',
      newRS: 1,
      oldRS: 3,
    },
    {
      name: '4 replicas, 50% surge / 0',
      replicas: 4,
      maxSurge: '50%',
      maxUnavailable: 0,
      newRS: 2,
      oldRS: 4,
    },
  ])(
    'first step of a rollout: $name',
    async ({ replicas, maxSurge, maxUnavailable, newRS, oldRS }) => {
      const { cache, now } = await rolledOut({ replicas, maxSurge, maxUnavailable })
      setImage(cache, 'web', 'nginx:2')
      const out = deploymentController().reconcile('default/web', cache, now + 1000)
      await cache.applyAll(out.actions)
      expect(replicasOf(byImage(cache, 'nginx:2')!)).toBe(newRS)
      expect(replicasOf(byImage(cache, 'nginx:1')!)).toBe(oldRS)
    },
  )
})

describe('a full rolling update', () => {
  it('rolls 10 replicas from nginx:1 to nginx:2 within 25%/25%, ending as rollout status expects', async () => {
    const { cache, controllers, now } = await rolledOut({ replicas: 10 })
    expect(rolloutStatusMessage(cache.get(deployments, 'default', 'web')!)).toBe(
      'deployment "web" successfully rolled out',
    )
    setImage(cache, 'web', 'nginx:2')
    expect(rolloutStatusMessage(cache.get(deployments, 'default', 'web')!)).toBe(
      'Waiting for deployment spec update to be observed...',
    )

    const messages = new Set<string>()
    const { now: end } = await settle(cache, controllers, now + 1000, {
      readyPerStep: 2,
      onStep: () => {
        const specTotal = cache.list(replicaSets).reduce((n, rs) => n + replicasOf(rs), 0)
        const ready = cache
          .list(pods)
          .filter((p) => isPodReady(p) && !p.metadata.deletionTimestamp).length
        expect(specTotal).toBeLessThanOrEqual(13)
        expect(ready).toBeGreaterThanOrEqual(8)
        messages.add(rolloutStatusMessage(cache.get(deployments, 'default', 'web')!))
      },
    })
    expect([...messages].some((m) => m.includes('new replicas have been updated'))).toBe(true)

    const oldRS = byImage(cache, 'nginx:1')!
    const newRS = byImage(cache, 'nginx:2')!
    expect(replicasOf(oldRS)).toBe(0)
    expect(oldRS.status).toEqual({ replicas: 0, observedGeneration: oldRS.metadata.generation })
    expect(replicasOf(newRS)).toBe(10)
    expect(newRS.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '2',
      'deployment.kubernetes.io/desired-replicas': '10',
      'deployment.kubernetes.io/max-replicas': '13',
    })
    expect(
      cache.list(pods).every((p) => p.metadata.ownerReferences?.[0].uid === newRS.metadata.uid),
    ).toBe(true)

    const d = cache.get(deployments, 'default', 'web')!
    expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2')
    const { conditions, ...counts } = d.status as {
      conditions: { type: string; status: string; reason: string }[]
    }
    expect(counts).toEqual({
      observedGeneration: 2,
      replicas: 10,
      updatedReplicas: 10,
      readyReplicas: 10,
      availableReplicas: 10,
    })
    expect(conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['Available', 'True', 'MinimumReplicasAvailable'],
      ['Progressing', 'True', 'NewReplicaSetAvailable'],
    ])
    expect(rolloutStatusMessage(d)).toBe('deployment "web" successfully rolled out')

    const scaling = cache.events
      .filter((e) => e.reason === 'ScalingReplicaSet')
      .map((e) => e.message.replace(/web-\w+/, (n) => (n === newRS.metadata.name ? 'NEW' : 'OLD')))
    expect(scaling[0]).toBe('Scaled up replica set OLD from 0 to 10')
    expect(scaling.slice(1, 3)).toEqual([
      'Scaled up replica set NEW from 0 to 3',
      'Scaled down replica set OLD from 10 to 8',
    ])
    expect(scaling.at(-1)).toMatch(
      /^Scaled (up replica set NEW from \d+ to 10|down replica set OLD from \d+ to 0)$/,
    )

    // Settled means settled: another pass of both controllers changes nothing.
    let actions = 0
    for (const c of controllers) actions += (await runPass(c, cache, end + 60_000)).actions
    expect(actions).toBe(0)
  })

  it('waits minReadySeconds before counting new pods available, and still completes', async () => {
    const { cache, controllers, now } = await rolledOut({ replicas: 4, minReadySeconds: 5 })
    setImage(cache, 'web', 'nginx:2')
    let sawReadyButUnavailable = false
    await settle(cache, controllers, now + 1000, {
      onStep: () => {
        const s = cache.get(deployments, 'default', 'web')!.status as {
          readyReplicas?: number
          availableReplicas?: number
        }
        if ((s.readyReplicas ?? 0) > (s.availableReplicas ?? 0)) sawReadyButUnavailable = true
      },
    })
    expect(sawReadyButUnavailable).toBe(true)
    const newRS = byImage(cache, 'nginx:2')!
    expect((newRS.spec as ReplicaSet['spec']).minReadySeconds).toBe(5)
    expect(newRS.status).toMatchObject({ replicas: 4, readyReplicas: 4, availableReplicas: 4 })
    expect(rolloutStatusMessage(cache.get(deployments, 'default', 'web')!)).toBe(
      'deployment "web" successfully rolled out',
    )
  })

  it('rolls back with rollout undo by reusing the old ReplicaSet under a new, higher revision', async () => {
    const { cache, controllers, now } = await rolledOut({ replicas: 3 })
    setImage(cache, 'web', 'nginx:2')
    const { now: t } = await settle(cache, controllers, now + 1000)
    const v1 = byImage(cache, 'nginx:1')!
    setImage(cache, 'web', 'nginx:1')
    await settle(cache, controllers, t + 1000)
    expect(cache.list(replicaSets)).toHaveLength(2)
    const reused = cache.get(replicaSets, 'default', v1.metadata.name!)!
    expect(reused.metadata.uid).toBe(v1.metadata.uid)
    expect(replicasOf(reused)).toBe(3)
    expect(reused.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '3',
      'deployment.kubernetes.io/revision-history': '1',
    })
    expect(replicasOf(byImage(cache, 'nginx:2')!)).toBe(0)
    expect(
      cache.get(deployments, 'default', 'web')!.metadata.annotations?.[
        'deployment.kubernetes.io/revision'
      ],
    ).toBe('3')
  })
})
