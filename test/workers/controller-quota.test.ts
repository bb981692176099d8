import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { api } from './helpers'
import { admitCreate } from '../../src/admission/create'
import { findResource } from '../../src/apis/registry'
import { storeFor } from '../../src/store-client/stores'
import { namespaceWithQuota } from './quota-namespace'
import { runner } from './controller-runner'
import { podManifest } from '../helpers'

const podsDef = findResource('', 'v1', 'pods')!

const replicaSet = (namespace: string, name: string, replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name, namespace },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    },
  },
})

async function podsOf(namespace: string, app: string): Promise<any[]> {
  return (await api('GET', `/api/v1/namespaces/${namespace}/pods?labelSelector=app%3D${app}`)).json
    .items
}

/** Runs the ReplicaSet controller until the ReplicaSet reports a ReplicaFailure (bounded). */
async function untilReplicaFailure(namespace: string, name: string): Promise<any> {
  const rsController = runner('replicaset')
  for (let i = 0; i < 5; i++) {
    await rsController.pass()
    const rs = (await api('GET', `/apis/apps/v1/namespaces/${namespace}/replicasets/${name}`)).json
    const failure = rs.status?.conditions?.find((c: any) => c.type === 'ReplicaFailure')
    if (failure) return failure
  }
  throw new Error(`no ReplicaFailure on ${namespace}/${name}`)
}

describe("a controller's creates are held to the namespace's quotas", () => {
  it('creates no pod under a quota of pods: 0, the ReplicaSet reports FailedCreate', async () => {
    const quotaController = runner('resourcequota')
    const quota = await namespaceWithQuota('quota-none', { pods: '0' }, quotaController)
    expect(quota.status.used).toEqual({ pods: '0' })

    expect(
      (
        await api(
          'POST',
          '/apis/apps/v1/namespaces/quota-none/replicasets',
          replicaSet('quota-none', 'none', 1),
        )
      ).status,
    ).toBe(201)
    const failure = await untilReplicaFailure('quota-none', 'none')
    // The API's error, naming the pod as generateName drew it, as kube-controller-manager reports it.
    const quotaError =
      /^pods "none-[a-z0-9]{5}" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0$/
    expect(failure).toMatchObject({
      status: 'True',
      reason: 'FailedCreate',
      message: expect.stringMatching(quotaError),
    })
    expect(await podsOf('quota-none', 'none')).toHaveLength(0)
    const events = (
      await api(
        'GET',
        '/api/v1/namespaces/quota-none/events?fieldSelector=involvedObject.name%3Dnone',
      )
    ).json.items
    const failed = events.filter((e: any) => e.reason === 'FailedCreate' && e.type === 'Warning')
    expect(failed).not.toHaveLength(0)
    for (const e of failed) {
      expect(e.source.component).toBe('replicaset-controller')
      expect(e.message.startsWith('Error creating: ')).toBe(true)
      expect(e.message.slice('Error creating: '.length)).toMatch(quotaError)
    }
  })

  it('creates no pod past a full quota when the quota controller passes between a charge and its pod', async () => {
    const quotaController = runner('resourcequota')
    await namespaceWithQuota('quota-full', { pods: '1' }, quotaController)
    const pod = podManifest('first', { namespace: 'quota-full' })
    const target = { def: podsDef, namespace: 'quota-full', name: 'first' }
    // A create as the API makes it (admission charges the quota, then the store stores the pod),
    // with a pass of the quota controller in between.
    await admitCreate(env, target, pod, {})
    await quotaController.pass()
    expect((await storeFor(env, podsDef).create(target, pod, {})).ok).toBe(true)
    expect(
      (await api('GET', '/api/v1/namespaces/quota-full/resourcequotas/q')).json.status.used,
    ).toEqual({ pods: '1' })

    expect(
      (
        await api(
          'POST',
          '/apis/apps/v1/namespaces/quota-full/replicasets',
          replicaSet('quota-full', 'over', 1),
        )
      ).status,
    ).toBe(201)
    expect(await untilReplicaFailure('quota-full', 'over')).toMatchObject({
      status: 'True',
      reason: 'FailedCreate',
      message: expect.stringContaining(
        'is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
      ),
    })
    expect(await podsOf('quota-full', 'over')).toHaveLength(0)
    // the resync's recount agrees
    await runner('resourcequota').pass()
    expect(
      (await api('GET', '/api/v1/namespaces/quota-full/resourcequotas/q')).json.status.used,
    ).toEqual({ pods: '1' })
  })
})
