import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { pods } from '../../../../src/controllers/resources'
import type { Action } from '../../../../src/controllers/runtime/types'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { newPod } from '../../../helpers'
import { replicationControllerController } from '../../../../src/controllers/replicationcontroller'
import { replicationControllers } from '../../../../src/controllers/resources'
import { defaultReplicationController } from '../../../../src/apis/replication-controller'

const now = Date.parse('2025-06-01T12:00:00Z')

function rc(replicas: number): KubeObject {
  const obj: KubeObject = {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: {
      name: 'web',
      namespace: 'default',
      uid: 'rc-uid',
      generation: 1,
      resourceVersion: '5',
    },
    spec: {
      replicas,
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    },
  }
  defaultReplicationController(obj)
  return obj
}

const ofType = <T extends Action['type']>(actions: Action[], type: T) =>
  actions.filter((a): a is Extract<Action, { type: T }> => a.type === type)

describe('ReplicationController controller', () => {
  it('defaults the selector and labels from the template', async () => {
    const obj = rc(1)
    expect((obj.spec as { selector?: unknown }).selector).toEqual({ app: 'web' })
    expect(obj.metadata.labels).toEqual({ app: 'web' })
  })

  it('creates the missing pods controlled by the RC and reports on the RC', async () => {
    const cache = new MemoryCache().put(replicationControllers, rc(2))
    const out = replicationControllerController().reconcile('default/web', cache, now)
    const creates = ofType(out.actions, 'create')
    expect(creates).toHaveLength(2)
    expect(creates[0]!.object.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        name: 'web',
        uid: 'rc-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ])
    expect(creates[0]!.object.metadata.labels).toEqual({ app: 'web' })
    const [status] = ofType(out.actions, 'updateStatus')
    expect(status?.resource).toEqual(replicationControllers)
    expect(status?.object.kind).toBe('ReplicationController')
    expect(status?.object.apiVersion).toBe('v1')
  })

  it('adopts a matching orphan with an RC reference and deletes the surplus', async () => {
    const orphan = newPod('orphan', { labels: { app: 'web' }, nodeName: 'n1' })
    const owned = newPod('owned', { labels: { app: 'web' }, nodeName: 'n1' })
    owned.metadata.ownerReferences = [
      {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        name: 'web',
        uid: 'rc-uid',
        controller: true,
      },
    ]
    const cache = new MemoryCache(orphan, owned).put(replicationControllers, rc(1))
    const out = replicationControllerController().reconcile('default/web', cache, now)
    const [adopt] = ofType(out.actions, 'patch')
    expect(
      (adopt?.patch as { metadata: { ownerReferences: { kind: string }[] } }).metadata
        .ownerReferences[0]!.kind,
    ).toBe('ReplicationController')
    expect(ofType(out.actions, 'delete')).toHaveLength(1)
    expect(
      ofType(out.actions, 'event').every((e) => e.involved.kind === 'ReplicationController'),
    ).toBe(true)
  })

  it('maps a pod change to the RC that controls it', async () => {
    const owned = newPod('owned', { labels: { app: 'web' } })
    owned.metadata.ownerReferences = [
      {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        name: 'web',
        uid: 'rc-uid',
        controller: true,
      },
    ]
    const cache = new MemoryCache(owned).put(replicationControllers, rc(1))
    expect(replicationControllerController().watches.keysFor(pods, owned, cache)).toEqual([
      'default/web',
    ])
  })
})
