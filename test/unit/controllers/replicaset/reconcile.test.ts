import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { pods, replicaSets } from '../../../../src/controllers/resources'
import { replicaSetController as declaredReplicaSetController } from '../../../../src/controllers/replicaset'
import type { Action } from '../../../../src/controllers/runtime/types'
import { MemoryCache, T0 } from '../../../fixtures/memory-cache'
import { newPod, newReplicaSet } from '../../../helpers'
import { withProjections } from '../../../fixtures/projected'

/** The controller as its host runs it, reading only the fields its projection keeps. */
const replicaSetController = (...args: Parameters<typeof declaredReplicaSetController>) =>
  withProjections(declaredReplicaSetController(...args))

const now = T0

const ofType = <T extends Action['type']>(actions: Action[], type: T) =>
  actions.filter((a): a is Extract<Action, { type: T }> => a.type === type)
const statusOf = (actions: Action[]) =>
  ofType(actions, 'updateStatus')[0]?.object.status as Record<string, unknown> | undefined

/** One reconcile as the runner makes it, with the controller's memory kept in the cache. */
function reconcile(
  cache: MemoryCache,
  key = 'default/web-rs',
  controller = replicaSetController(),
) {
  return cache.reconcile(controller, key, now)
}

/** n pods of the ReplicaSet, all ready for an hour */
const readyPods = (rs: KubeObject, n: number, prefix = 'p') =>
  Array.from({ length: n }, (_, i) =>
    newPod(`${prefix}${i}`, { owner: rs, readySince: T0 - 3600_000 }),
  )

describe('replicaset reconcile: replica diff', () => {
  it.each([
    { name: 'creates the missing pods', replicas: 3, have: 1, creates: 2, deletes: 0 },
    { name: 'deletes the surplus', replicas: 1, have: 3, creates: 0, deletes: 2 },
    { name: 'does nothing at the desired count', replicas: 2, have: 2, creates: 0, deletes: 0 },
    { name: 'scales to zero', replicas: 0, have: 2, creates: 0, deletes: 2 },
    {
      name: 'caps creates at BurstReplicas (100) per pass',
      replicas: 700,
      have: 0,
      creates: 100,
      deletes: 0,
    },
    {
      name: 'caps deletes at BurstReplicas (100) per pass',
      replicas: 0,
      have: 120,
      creates: 0,
      deletes: 100,
    },
  ])('$name', ({ replicas, have, creates, deletes }) => {
    const rs = newReplicaSet('web-rs', { replicas })
    const cache = new MemoryCache(rs, ...readyPods(rs, have))
    const out = reconcile(cache)
    expect(ofType(out.actions, 'create')).toHaveLength(creates)
    expect(ofType(out.actions, 'delete')).toHaveLength(deletes)
  })

  it.each([1, 2, 3, 7, 16, 100].map((missing) => ({ name: `${missing} missing`, missing })))(
    'asks for every pod in one run of creates, whatever batches the runner applies them in: $name',
    async ({ missing }) => {
      const rs = newReplicaSet('web-rs', { replicas: missing })
      const out = reconcile(new MemoryCache(rs))
      const kinds = out.actions.map((a) => a.type)
      const first = kinds.indexOf('create')
      expect(kinds.slice(first, first + missing)).toEqual(Array(missing).fill('create'))
      expect(kinds.filter((k) => k === 'create')).toHaveLength(missing)
    },
  )

  it('creates pods from the template with generateName, namespace, labels and the controller reference', async () => {
    const rs = newReplicaSet('web-rs', {
      replicas: 1,
      namespace: 'prod',
      templateLabels: { app: 'web', tier: 'fe' },
    })
    const [create] = ofType(reconcile(new MemoryCache(rs), 'prod/web-rs').actions, 'create')
    expect(create.resource).toEqual(pods)
    expect(create.object).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: 'web-rs-',
        namespace: 'prod',
        labels: { app: 'web', tier: 'fe' },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: 'web-rs',
            uid: 'uid-web-rs',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      // the template as the store defaulted it
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
    })
  })

  it('deletes with a uid precondition and records SuccessfulDelete after each delete', async () => {
    const rs = newReplicaSet('web-rs', { replicas: 1 })
    const cache = new MemoryCache(
      rs,
      newPod('old', { owner: rs, readySince: T0 - 7200_000 }),
      newPod('pending', { owner: rs }),
    )
    const out = reconcile(cache)
    const tail = out.actions.slice(out.actions.findIndex((a) => a.type === 'delete'))
    expect(tail).toEqual([
      {
        type: 'delete',
        resource: pods,
        namespace: 'default',
        name: 'pending',
        preconditions: { uid: 'uid-pending' },
      },
      {
        type: 'event',
        involved: expect.objectContaining({ kind: 'ReplicaSet' }),
        eventType: 'Normal',
        reason: 'SuccessfulDelete',
        message: 'Deleted pod: pending',
      },
    ])
  })

  it.each([
    { name: 'succeeded', pod: { phase: 'Succeeded' } },
    { name: 'failed', pod: { phase: 'Failed' } },
    {
      name: 'being deleted',
      pod: { readySince: T0 - 60_000, deletionTimestamp: '2025-06-01T11:59:00Z' },
    },
  ])('replaces a pod that is $name: only active pods count', ({ pod }) => {
    const rs = newReplicaSet('web-rs', { replicas: 1 })
    const out = reconcile(new MemoryCache(rs, newPod('p', { owner: rs, ...pod })))
    expect(ofType(out.actions, 'create')).toHaveLength(1)
    expect(statusOf(out.actions)).toEqual({ replicas: 0, observedGeneration: 1 })
  })

  it('neither creates nor deletes while the ReplicaSet is being deleted, but still reports status', async () => {
    const rs = newReplicaSet('web-rs', { replicas: 5, deletionTimestamp: '2025-06-01T11:00:00Z' })
    const out = reconcile(new MemoryCache(rs, ...readyPods(rs, 1)))
    expect(out.actions.map((a) => a.type)).toEqual(['updateStatus'])
  })

  it('creates nothing from a template whose labels its selector does not match', async () => {
    const rs = newReplicaSet('web-rs', {
      replicas: 2,
      selector: { app: 'web' },
      templateLabels: { app: 'other' },
    })
    expect(ofType(reconcile(new MemoryCache(rs)).actions, 'create')).toEqual([])
  })

  it('does nothing for a ReplicaSet that is gone', async () => {
    expect(reconcile(new MemoryCache())).toEqual({ actions: [] })
  })
})

describe('replicaset reconcile: adoption and release', () => {
  const ref = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name: 'web-rs',
    uid: 'uid-web-rs',
    controller: true,
    blockOwnerDeletion: true,
  }

  it('adopts a matching orphan with a controller reference and counts it', async () => {
    const rs = newReplicaSet('web-rs', { replicas: 1 })
    const orphan = newPod('orphan', { readySince: T0 - 3600_000 })
    const out = reconcile(new MemoryCache(rs, orphan))
    expect(out.actions[0]).toEqual({
      type: 'patch',
      resource: pods,
      namespace: 'default',
      name: 'orphan',
      patch: { metadata: { ownerReferences: [ref], resourceVersion: '1' } },
    })
    expect(ofType(out.actions, 'create')).toHaveLength(0)
    expect(statusOf(out.actions)).toMatchObject({
      replicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
    })
  })

  it.each([
    { name: 'labels do not match', pod: newPod('x', { labels: { app: 'other' } }) },
    {
      name: 'it is being deleted',
      pod: newPod('x', { deletionTimestamp: '2025-06-01T11:59:00Z' }),
    },
    { name: 'it is finished', pod: newPod('x', { phase: 'Succeeded' }) },
    { name: 'another controller owns it', pod: newPod('x', { owner: newReplicaSet('other-rs') }) },
  ])('leaves a pod alone when $name', ({ pod }) => {
    const rs = newReplicaSet('web-rs', { replicas: 0 })
    expect(ofType(reconcile(new MemoryCache(rs, pod)).actions, 'patch')).toEqual([])
  })

  it('adopts nothing while the ReplicaSet is being deleted', async () => {
    const rs = newReplicaSet('web-rs', { replicas: 1, deletionTimestamp: '2025-06-01T11:00:00Z' })
    expect(ofType(reconcile(new MemoryCache(rs, newPod('orphan'))).actions, 'patch')).toEqual([])
  })

  it('releases an owned pod whose labels no longer match, keeping other owners, and replaces it', async () => {
    const rs = newReplicaSet('web-rs', { replicas: 1 })
    const pod = newPod('relabelled', {
      owner: rs,
      labels: { app: 'debug' },
      readySince: T0 - 60_000,
    })
    const other = { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', uid: 'uid-cm' }
    pod.metadata.ownerReferences!.push(other)
    const out = reconcile(new MemoryCache(rs, pod))
    expect(out.actions[0]).toEqual({
      type: 'patch',
      resource: pods,
      namespace: 'default',
      name: 'relabelled',
      patch: { metadata: { ownerReferences: [other], resourceVersion: '1' } },
    })
    expect(ofType(out.actions, 'create')).toHaveLength(1)
  })

  it('removes the owner references altogether when the ReplicaSet was the only owner', async () => {
    const rs = newReplicaSet('web-rs', { replicas: 0 })
    const out = reconcile(
      new MemoryCache(rs, newPod('relabelled', { owner: rs, labels: { app: 'debug' } })),
    )
    expect(out.actions[0]).toMatchObject({
      type: 'patch',
      patch: { metadata: { ownerReferences: null } },
    })
  })
})

describe('replicaset reconcile: status', () => {
  it.each([
    {
      name: 'counts ready and available pods',
      minReadySeconds: 0,
      pods: [{ readySince: T0 - 10_000 }, { readySince: T0 - 10_000 }, {}],
      status: {
        replicas: 3,
        fullyLabeledReplicas: 3,
        readyReplicas: 2,
        availableReplicas: 2,
        observedGeneration: 1,
      },
      requeueAfterMs: undefined,
    },
    {
      name: 'waits minReadySeconds before a ready pod is available, and comes back just then',
      minReadySeconds: 30,
      pods: [{ readySince: T0 - 10_000 }, { readySince: T0 - 60_000 }],
      status: {
        replicas: 2,
        fullyLabeledReplicas: 2,
        readyReplicas: 2,
        availableReplicas: 1,
        observedGeneration: 1,
      },
      requeueAfterMs: 20_001,
    },
    {
      name: 'counts a pod ready exactly minReadySeconds ago as not yet available (upstream compares strictly)',
      minReadySeconds: 10,
      pods: [{ readySince: T0 - 10_000 }],
      status: { replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, observedGeneration: 1 },
      requeueAfterMs: 1,
    },
    {
      name: 'counts not-ready pods as replicas only',
      minReadySeconds: 0,
      pods: [{ notReady: true }],
      status: { replicas: 1, fullyLabeledReplicas: 1, observedGeneration: 1 },
      requeueAfterMs: undefined,
    },
  ])('$name', ({ minReadySeconds, pods: fixtures, status, requeueAfterMs }) => {
    const rs = newReplicaSet('web-rs', { replicas: fixtures.length, minReadySeconds })
    const out = reconcile(
      new MemoryCache(rs, ...fixtures.map((f, i) => newPod(`p${i}`, { owner: rs, ...f }))),
    )
    expect(statusOf(out.actions)).toEqual(status)
    expect(out.requeueAfterMs).toBe(requeueAfterMs)
  })

  it('counts only pods carrying every template label as fully labeled', async () => {
    const rs = newReplicaSet('web-rs', {
      replicas: 2,
      selector: { app: 'web' },
      templateLabels: { app: 'web', track: 'stable' },
    })
    const out = reconcile(
      new MemoryCache(
        rs,
        newPod('a', { owner: rs }),
        newPod('b', { owner: rs, labels: { app: 'web' } }),
      ),
    )
    expect(statusOf(out.actions)).toMatchObject({ replicas: 2, fullyLabeledReplicas: 1 })
  })

  it('writes no status when nothing changed, and writes the status without a resourceVersion', async () => {
    const rs = newReplicaSet('web-rs', {
      replicas: 2,
      generation: 3,
      status: {
        replicas: 2,
        fullyLabeledReplicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        observedGeneration: 3,
      },
    })
    const cache = new MemoryCache(rs, ...readyPods(rs, 2))
    expect(reconcile(cache)).toEqual({ actions: [] })
    cache.write(replicaSets, { ...rs, metadata: { ...rs.metadata, generation: 4 } })
    const [write] = ofType(reconcile(cache).actions, 'updateStatus')
    expect(write.object.metadata.resourceVersion).toBeUndefined()
    expect(write.object.status).toMatchObject({ observedGeneration: 4 })
  })
})

describe('replicaset reconcile: across passes', () => {
  it('records SuccessfulCreate with the names the store gave, on the pass after the creates', async () => {
    const controller = replicaSetController()
    const rs = newReplicaSet('web-rs', { replicas: 2 })
    const cache = new MemoryCache(rs)
    await cache.applyAll(reconcile(cache, undefined, controller).actions)
    const names = cache.list(pods).map((p) => p.metadata.name)
    expect(names).toHaveLength(2)
    names.forEach((n) => expect(n).toMatch(/^web-rs-[bcdfghjklmnpqrstvwxz2456789]{5}$/))
    await cache.applyAll(reconcile(cache, undefined, controller).actions)
    expect(cache.events.map((e) => `${e.reason}: ${e.message}`).sort()).toEqual(
      names.map((n) => `SuccessfulCreate: Created pod: ${n}`).sort(),
    )
    expect(cache.get(replicaSets, 'default', 'web-rs')!.status).toEqual({
      replicas: 2,
      fullyLabeledReplicas: 2,
      observedGeneration: 1,
    })
  })

  it('reports ReplicaFailure (FailedCreate) with the API error that refused a create, and clears it once creates succeed', async () => {
    const controller = replicaSetController()
    const rs = newReplicaSet('web-rs', { replicas: 3 })
    const cache = new MemoryCache(rs)
    cache.podCreateQuota = 1
    const first = await cache.tryApplyAll(reconcile(cache, undefined, controller).actions)
    expect(first.refused?.status).toMatchObject({ code: 403, reason: 'Forbidden' })
    const quotaError = first.refused!.status.message!
    expect(quotaError).toMatch(
      /^pods "web-rs-[a-z0-9]{5}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1$/,
    )

    const second = cache.reconcile(controller, 'default/web-rs', now, first.refused)
    expect(statusOf(second.actions)).toEqual({
      replicas: 1,
      fullyLabeledReplicas: 1,
      observedGeneration: 1,
      conditions: [
        {
          type: 'ReplicaFailure',
          status: 'True',
          lastTransitionTime: '2025-06-01T12:00:00Z',
          reason: 'FailedCreate',
          message: quotaError,
        },
      ],
    })
    expect(ofType(second.actions, 'event').map((e) => [e.eventType, e.reason, e.message])).toEqual([
      ['Normal', 'SuccessfulCreate', `Created pod: ${cache.list(pods)[0]!.metadata.name}`],
      ['Warning', 'FailedCreate', `Error creating: ${quotaError}`],
    ])
    expect(ofType(second.actions, 'create')).toHaveLength(2)

    // Refused again: the condition keeps the message it was set with; each refusal is an event.
    const again = await cache.tryApplyAll(second.actions)
    const third = cache.reconcile(controller, 'default/web-rs', now + 1000, again.refused)
    expect(statusOf(third.actions)).toBeUndefined()
    expect(ofType(third.actions, 'event').map((e) => e.message)).toEqual([
      `Error creating: ${again.refused!.status.message}`,
    ])

    cache.podCreateQuota = undefined
    expect((await cache.tryApplyAll(third.actions)).refused).toBeUndefined()
    await cache.applyAll(cache.reconcile(controller, 'default/web-rs', now + 2000).actions)
    expect(cache.get(replicaSets, 'default', 'web-rs')!.status).toEqual({
      replicas: 3,
      fullyLabeledReplicas: 3,
      observedGeneration: 1,
    })
  })

  it('reports ReplicaFailure (FailedDelete) with the API error that refused a delete', () => {
    const rs = newReplicaSet('web-rs', { replicas: 0 })
    const cache = new MemoryCache(rs, ...readyPods(rs, 1))
    const [del] = ofType(reconcile(cache).actions, 'delete')
    const status = {
      kind: 'Status' as const,
      apiVersion: 'v1' as const,
      metadata: {},
      status: 'Failure' as const,
      code: 403,
      reason: 'Forbidden' as const,
      message: 'pods "p0" is forbidden: denied by a webhook',
    }
    const out = replicaSetController().reconcile('default/web-rs', cache, now, {
      action: del!,
      status,
    })
    expect(statusOf(out.actions)?.conditions).toEqual([
      {
        type: 'ReplicaFailure',
        status: 'True',
        lastTransitionTime: '2025-06-01T12:00:00Z',
        reason: 'FailedDelete',
        message: status.message,
      },
    ])
    expect(ofType(out.actions, 'event').find((e) => e.eventType === 'Warning')).toMatchObject({
      reason: 'FailedDelete',
      message: `Error deleting: ${status.message}`,
    })
  })

  it('reports no failure for a refused write that was not a pod create or delete', () => {
    const rs = newReplicaSet('web-rs', { replicas: 1 })
    const cache = new MemoryCache(rs, ...readyPods(rs, 1))
    const status = {
      kind: 'Status' as const,
      apiVersion: 'v1' as const,
      metadata: {},
      status: 'Failure' as const,
      code: 409,
      reason: 'Conflict' as const,
      message: 'conflict',
    }
    const out = replicaSetController().reconcile('default/web-rs', cache, now, {
      action: { type: 'updateStatus', resource: replicaSets, object: rs },
      status,
    })
    expect(ofType(out.actions, 'event')).toEqual([])
    expect(statusOf(out.actions)?.conditions).toBeUndefined()
  })
})

describe('replicaset keysFor', () => {
  const controller = replicaSetController()
  const rs = newReplicaSet('web-rs')
  const other = newReplicaSet('api-rs', { selector: { app: 'api' } })
  const cache = new MemoryCache(rs, other)

  it.each([
    {
      name: 'a ReplicaSet maps to itself',
      resource: replicaSets,
      object: rs,
      keys: ['default/web-rs'],
    },
    {
      name: 'an owned pod maps to its ReplicaSet',
      resource: pods,
      object: newPod('p', { owner: rs }),
      keys: ['default/web-rs'],
    },
    {
      name: 'an orphan maps to every ReplicaSet that selects it',
      resource: pods,
      object: newPod('p', { labels: { app: 'api' } }),
      keys: ['default/api-rs'],
    },
    {
      name: 'an orphan being deleted maps to nothing',
      resource: pods,
      object: newPod('p', { deletionTimestamp: '2025-06-01T11:00:00Z' }),
      keys: [],
    },
    {
      name: 'a pod of a ReplicaSet replaced under the same name maps to nothing',
      resource: pods,
      object: newPod('p', { owner: { ...rs, metadata: { ...rs.metadata, uid: 'old' } } }),
      keys: [],
    },
    {
      name: 'a pod controlled by another kind maps to nothing',
      resource: pods,
      object: {
        ...newPod('p'),
        metadata: {
          ...newPod('p').metadata,
          ownerReferences: [
            {
              apiVersion: 'batch/v1',
              kind: 'Job',
              name: 'web-rs',
              uid: 'uid-web-rs',
              controller: true,
            },
          ],
        },
      },
      keys: [],
    },
  ])('$name', ({ resource, object, keys }) => {
    expect(controller.watches.keysFor(resource, object, cache)).toEqual(keys)
  })

  it('watches replicasets and pods and resyncs every ReplicaSet', async () => {
    expect(controller.watches.kinds).toEqual([replicaSets, pods])
    expect(controller.watches.allKeys(cache).sort()).toEqual(['default/api-rs', 'default/web-rs'])
  })
})
