import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { pods } from '../../../../src/controllers/resources'
import { deployments, replicaSets } from '../../../../src/controllers/resources'
import {
  podDisruptionBudgets,
  reconcileDisruptionBudget as declaredReconcileDisruptionBudget,
  disruptionController,
} from '../../../../src/controllers/disruption'
import { DELETION_TIMEOUT_MS } from '../../../../src/controllers/disruption/reconcile'
import type { Action, Cache, ResourceRef } from '../../../../src/controllers/runtime/types'
import { projectedView } from '../../../fixtures/projected'
import { newPod } from '../../../helpers'

/** The reconcile as the controller's host runs it, on the fields its projection keeps. */
const reconcileDisruptionBudget = (
  key: string,
  cache: Cache,
  ...rest: Parameters<typeof declaredReconcileDisruptionBudget> extends [string, Cache, ...infer R]
    ? R
    : never
) =>
  declaredReconcileDisruptionBudget(
    key,
    projectedView(cache, (r) => disruptionController().watches.reads?.(r)),
    ...rest,
  )

const now = Date.parse('2025-06-01T12:00:00Z')

class Objects implements Cache {
  private readonly items: [ResourceRef, KubeObject][] = []
  add(r: ResourceRef, ...objects: KubeObject[]): this {
    for (const o of objects) this.items.push([r, o])
    return this
  }
  get(r: ResourceRef, namespace: string | undefined, name: string) {
    return this.list(r, namespace).find((o) => o.metadata.name === name)
  }
  list(r: ResourceRef, namespace?: string) {
    return this.items
      .filter(
        ([ref, o]) =>
          ref.plural === r.plural &&
          (namespace === undefined || o.metadata.namespace === namespace),
      )
      .map(([, o]) => o)
  }
}

const deployment: KubeObject = {
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'ns', uid: 'd1' },
  spec: { replicas: 4 },
}
const replicaSet: KubeObject = {
  kind: 'ReplicaSet',
  metadata: {
    name: 'web-1',
    namespace: 'ns',
    uid: 'rs1',
    ownerReferences: [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd1', controller: true },
    ],
  },
  spec: { replicas: 4 },
}

/** A Running replica of ReplicaSet web-1, Ready or not. */
const replica = (
  name: string,
  ready: boolean,
  metadata: Partial<KubeObject['metadata']> = {},
): KubeObject =>
  newPod(name, {
    namespace: 'ns',
    owner: replicaSet,
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
    metadata,
  })

function budget(spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject {
  return {
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'ns', generation: 1 },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
    ...(status ? { status } : {}),
  }
}

function statusAfter(cache: Objects): Record<string, unknown> | undefined {
  const actions: Action[] = reconcileDisruptionBudget('ns/web', cache, now).actions
  const update = actions.find((a) => a.type === 'updateStatus')
  return update?.type === 'updateStatus'
    ? (update.object.status as Record<string, unknown>)
    : undefined
}

const cluster = (b: KubeObject, ...ps: KubeObject[]) =>
  new Objects()
    .add(podDisruptionBudgets, b)
    .add(deployments, deployment)
    .add(replicaSets, replicaSet)
    .add(pods, ...ps)

describe('disruption controller status', () => {
  const fourPods = [replica('a', true), replica('b', true), replica('c', true), replica('d', false)]

  it('an integer minAvailable counts the selected pods', () => {
    expect(statusAfter(cluster(budget({ minAvailable: 2 }), ...fourPods))).toMatchObject({
      observedGeneration: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 4,
      disruptionsAllowed: 1,
      conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' }],
    })
  })

  it('maxUnavailable and percentages are of the owning Deployment scale, rounded up', () => {
    expect(statusAfter(cluster(budget({ maxUnavailable: '30%' }), ...fourPods))).toMatchObject({
      desiredHealthy: 2,
      expectedPods: 4,
      disruptionsAllowed: 1,
    })
    expect(statusAfter(cluster(budget({ minAvailable: '80%' }), ...fourPods))).toMatchObject({
      desiredHealthy: 4,
      expectedPods: 4,
      disruptionsAllowed: 0,
      conditions: [{ status: 'False', reason: 'InsufficientPods' }],
    })
  })

  it('pods being deleted or recently evicted are not healthy; stale evictions are forgotten', () => {
    const deleting = replica('b', true, { deletionTimestamp: '2025-06-01T11:59:50Z' })
    const recent = new Date(now - 1000).toISOString()
    const stale = new Date(now - DELETION_TIMEOUT_MS - 1000).toISOString()
    const status = statusAfter(
      cluster(
        budget({ minAvailable: 1 }, { disruptedPods: { a: recent, c: stale } }),
        replica('a', true),
        deleting,
        replica('c', true),
      ),
    )
    expect(status).toMatchObject({
      currentHealthy: 1,
      disruptionsAllowed: 0,
      disruptedPods: { a: recent },
    })
    expect(Object.keys(status!.disruptedPods as object)).toEqual(['a'])
  })

  it('a pod whose controller is unknown fails safe with no disruption allowed', () => {
    const orphanOwned = replica('x', true, {
      ownerReferences: [
        { apiVersion: 'example.com/v1', kind: 'Thing', name: 't', uid: 't1', controller: true },
      ],
    })
    expect(statusAfter(cluster(budget({ maxUnavailable: 1 }), orphanOwned))).toMatchObject({
      disruptionsAllowed: 0,
      conditions: [
        { status: 'False', reason: 'SyncFailed', message: 'found no controllers for pod "x"' },
      ],
    })
  })

  it('writes nothing when the status is already current', () => {
    const first = cluster(budget({ minAvailable: 2 }), ...fourPods)
    const status = statusAfter(first)
    expect(statusAfter(cluster(budget({ minAvailable: 2 }, status), ...fourPods))).toBeUndefined()
  })
})
