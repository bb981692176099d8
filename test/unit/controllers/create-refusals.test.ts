import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import { admissionForbidden } from '../../../src/admission/forbidden'
import { alreadyExists } from '../../../src/apimachinery/status'
import { formatTime } from '../../../src/apimachinery/meta-time'
import { cronJobController } from '../../../src/controllers/cronjob'
import { daemonSetController } from '../../../src/controllers/daemonset'
import { deploymentController } from '../../../src/controllers/deployment'
import { jobController } from '../../../src/controllers/job'
import {
  cronJobs,
  daemonSets,
  deployments,
  jobs,
  nodes,
  persistentVolumeClaims,
  pods,
  replicaSets,
  sameResource,
  statefulSets,
} from '../../../src/controllers/resources'
import { statefulSetController } from '../../../src/controllers/statefulset'
import type {
  Action,
  ControllerDefinition,
  ResourceRef,
} from '../../../src/controllers/runtime/types'
import { MemoryCache, T0 } from '../../fixtures/memory-cache'
import { newNode, newDeployment } from '../../helpers'

type Json = Record<string, any>

const quota = (r: ResourceRef) => (r.plural === 'pods' ? 'pods' : `count/${r.plural}.${r.group}`)

/** Refuses every create of `resource` as quota admission does over a full quota `q`. */
function overQuota(cache: MemoryCache, resource: ResourceRef): void {
  cache.refuseCreate = (r, o) =>
    sameResource(r, resource)
      ? admissionForbidden(
          r,
          o.metadata.name ?? '',
          `exceeded quota: q, requested: ${quota(r)}=1, used: ${quota(r)}=0, limited: ${quota(r)}=0`,
        )
      : undefined
}

const warningsOf = (actions: Action[]) =>
  actions.flatMap((a) =>
    a.type === 'event' && a.eventType === 'Warning' ? [`${a.reason}: ${a.message}`] : [],
  )

/**
 * One pass whose creates are refused, then the next: the warnings and status the next reports.
 * The first pass itself reports no failure.
 */
async function refusedThenNext(def: ControllerDefinition, key: string, cache: MemoryCache) {
  const first = def.reconcile(key, cache, T0)
  expect(warningsOf(first.actions)).toEqual([])
  const applied = await cache.tryApplyAll(first.actions)
  expect(applied.refused).toBeDefined()
  const next = def.reconcile(key, cache, T0 + 1000, applied.refused)
  return { refused: applied.refused!, next, warnings: warningsOf(next.actions) }
}

describe('a refused create is reported with the API error, on the pass after it', () => {
  it('Job: FailedCreate "Error creating: <err>"', async () => {
    const uid = 'uid-pi'
    const job: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name: 'pi',
        namespace: 'default',
        uid,
        resourceVersion: '1',
        generation: 1,
        creationTimestamp: formatTime(T0),
      },
      spec: {
        selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
        template: {
          metadata: {
            labels: {
              'batch.kubernetes.io/controller-uid': uid,
              'batch.kubernetes.io/job-name': 'pi',
              'controller-uid': uid,
              'job-name': 'pi',
            },
          },
          spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] },
        },
      },
      status: {},
    }
    const cache = new MemoryCache()
    cache.write(jobs, job)
    overQuota(cache, pods)
    const { refused, warnings } = await refusedThenNext(jobController(), 'default/pi', cache)
    expect(refused.status.message).toMatch(
      /^pods "pi-[a-z0-9]{5}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0$/,
    )
    expect(warnings).toEqual([`FailedCreate: Error creating: ${refused.status.message}`])
  })

  it('DaemonSet: FailedCreate "Error creating: <err>"', async () => {
    const ds: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        name: 'agent',
        namespace: 'default',
        uid: 'uid-agent',
        generation: 1,
        resourceVersion: '1',
      },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'main', image: 'agent:1' }] },
        },
      },
      status: {},
    }
    const cache = new MemoryCache()
    cache.write(nodes, newNode('n1'))
    cache.write(daemonSets, ds)
    overQuota(cache, pods)
    const { refused, warnings } = await refusedThenNext(
      daemonSetController(),
      'default/agent',
      cache,
    )
    expect(refused.status.message).toContain('is forbidden: exceeded quota: q')
    expect(warnings).toEqual([`FailedCreate: Error creating: ${refused.status.message}`])
  })

  it('CronJob: FailedCreate "Error creating job: <err>"; an AlreadyExists is not reported', async () => {
    const cj: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: {
        name: 'tick',
        namespace: 'default',
        uid: 'uid-tick',
        resourceVersion: '1',
        creationTimestamp: formatTime(T0 - 90_000),
      },
      spec: {
        schedule: '*/1 * * * *',
        jobTemplate: {
          spec: {
            template: {
              spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] },
            },
          },
        },
      },
      status: {},
    }
    const cache = new MemoryCache()
    cache.write(cronJobs, cj)
    overQuota(cache, jobs)
    const { refused, warnings } = await refusedThenNext(cronJobController(), 'default/tick', cache)
    expect(refused.status.message).toMatch(
      /^jobs\.batch "tick-\d+" is forbidden: exceeded quota: q/,
    )
    expect(warnings).toEqual([`FailedCreate: Error creating job: ${refused.status.message}`])

    const exists = { action: refused.action, status: alreadyExists('batch', 'jobs', 'tick-1') }
    expect(
      warningsOf(cronJobController().reconcile('default/tick', cache, T0 + 1000, exists).actions),
    ).toEqual([])
  })

  it('StatefulSet: a refused pod is "create Pod <pod> in StatefulSet <set> failed error: <err>"', async () => {
    const cache = new MemoryCache()
    cache.write(statefulSets, newStatefulSet())
    overQuota(cache, pods)
    const { refused, warnings } = await refusedThenNext(
      statefulSetController(),
      'default/web',
      cache,
    )
    expect(refused.status.message).toBe(
      'pods "web-0" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0',
    )
    expect(warnings).toEqual([
      `FailedCreate: create Pod web-0 in StatefulSet web failed error: ${refused.status.message}`,
    ])
  })

  it('StatefulSet: a refused claim gets the claim event and its pod event', async () => {
    const cache = new MemoryCache()
    cache.write(statefulSets, newStatefulSet())
    overQuota(cache, persistentVolumeClaims)
    const { refused, warnings } = await refusedThenNext(
      statefulSetController(),
      'default/web',
      cache,
    )
    const err = refused.status.message
    expect(err).toMatch(/^persistentvolumeclaims "data-web-0" is forbidden: exceeded quota: q/)
    expect(warnings).toEqual([
      `FailedCreate: create Claim data-web-0 for Pod web-0 in StatefulSet web failed error: ${err}`,
      `FailedCreate: create Pod web-0 in StatefulSet web failed error: failed to create PVC data-web-0: ${err}`,
    ])
  })

  it('Deployment: ReplicaSetCreateError event and Progressing=False, written before the create is tried again', async () => {
    const cache = new MemoryCache(newDeployment('web', { replicas: 2 }))
    overQuota(cache, replicaSets)
    const { refused, next, warnings } = await refusedThenNext(
      deploymentController(),
      'default/web',
      cache,
    )
    const rsName = (refused.action as Extract<Action, { type: 'create' }>).object.metadata.name
    const message = `Failed to create new replica set "${rsName}": ${refused.status.message}`
    expect(refused.status.message).toContain(
      `replicasets.apps "${rsName}" is forbidden: exceeded quota: q`,
    )
    expect(warnings).toEqual([`ReplicaSetCreateError: ${message}`])
    const types = next.actions.map((a) => a.type)
    expect(types.indexOf('updateStatus')).toBeLessThan(types.indexOf('create'))
    await cache.tryApplyAll(next.actions)
    const progressing = (cache.get(deployments, 'default', 'web')!.status as Json).conditions.find(
      (c: Json) => c.type === 'Progressing',
    )
    expect(progressing).toMatchObject({ status: 'False', reason: 'ReplicaSetCreateError', message })

    // Once the create goes through, the rollout reports progress again.
    cache.refuseCreate = undefined
    expect(
      (
        await cache.tryApplyAll(
          deploymentController().reconcile('default/web', cache, T0 + 2000).actions,
        )
      ).refused,
    ).toBeUndefined()
    expect(cache.list(replicaSets)).toHaveLength(1)
    const after = (cache.get(deployments, 'default', 'web')!.status as Json).conditions.find(
      (c: Json) => c.type === 'Progressing',
    )
    expect(after).toMatchObject({ status: 'True', reason: 'NewReplicaSetCreated' })
  })
})

function newStatefulSet(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name: 'web',
      namespace: 'default',
      uid: 'uid-web',
      generation: 1,
      resourceVersion: '1',
    },
    spec: {
      replicas: 2,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
    status: {},
  }
}
