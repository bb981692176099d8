import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import { deadlineWatchersOf, watchersOf } from '../../../src/controllers/registry'
import { newNode, podManifest } from '../../helpers'

const lease: KubeObject = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'n1', namespace: 'kube-node-lease' },
}
/** A bare pod: no node, no labels, no owner. */
const pending = podManifest('p', { namespace: 'default' })
const deleting = podManifest('p', {
  namespace: 'default',
  metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' },
})

describe('which controllers a stored change wakes', () => {
  it('a lease renewal wakes nobody: it only moves a deadline later', () => {
    expect(watchersOf('coordination.k8s.io/leases', 'MODIFIED', lease)).toEqual([])
    expect(watchersOf('coordination.k8s.io/leases', 'ADDED', lease)).toEqual([])
  })

  it('a deleted lease wakes node lifecycle, and so does one that passed its deadline', () => {
    expect(watchersOf('coordination.k8s.io/leases', 'DELETED', lease)).toEqual(['node-lifecycle'])
    expect(deadlineWatchersOf('coordination.k8s.io/leases')).toEqual(['node-lifecycle'])
    expect(deadlineWatchersOf('core/pods')).toEqual([])
  })

  it('only namespaces wake the namespace controller: content is emptied in the stores', () => {
    expect(watchersOf('core/pods', 'MODIFIED', pending)).not.toContain('namespace')
    expect(watchersOf('core/pods', 'MODIFIED', deleting)).not.toContain('namespace')
    expect(watchersOf('core/pods', 'DELETED', pending)).not.toContain('namespace')
    expect(
      watchersOf('core/namespaces', 'MODIFIED', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'x' },
      }),
    ).toContain('namespace')
  })

  it('a bare pending pod wakes the scheduler only; its binding wakes the node lifecycle controller', () => {
    expect(watchersOf('core/pods', 'ADDED', pending)).toEqual(['scheduler'])
    const bound = { ...pending, spec: { nodeName: 'n1' }, status: { phase: 'Running' } }
    expect(watchersOf('core/pods', 'MODIFIED', bound, pending)).toEqual(['node-lifecycle'])
  })

  it('a pod wakes the workload controller that controls it, and the Service controllers when labelled', () => {
    const owned: KubeObject = {
      ...pending,
      metadata: {
        ...pending.metadata,
        labels: { app: 'web' },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'u', controller: true },
        ],
      },
    }
    expect(watchersOf('core/pods', 'ADDED', owned).sort()).toEqual([
      'endpoints',
      'endpointslice',
      'garbage-collector',
      'replicaset',
      'scheduler',
    ])
    expect(watchersOf('core/pods', 'DELETED', owned)).toContain('deployment')
    // A labelled orphan may be adopted by any workload controller.
    const orphan: KubeObject = {
      ...pending,
      metadata: { ...pending.metadata, labels: { app: 'web' } },
    }
    for (const name of ['replicaset', 'statefulset', 'daemonset', 'job'])
      expect(watchersOf('core/pods', 'ADDED', orphan)).toContain(name)
  })

  it("a node's status report that only moves its heartbeat wakes nobody; one that changes it does", () => {
    const before = newNode('n1', { heartbeat: '2025-01-01T00:00:00Z' })
    const beat = {
      ...newNode('n1', { heartbeat: '2025-01-01T00:05:00Z' }),
      metadata: { ...before.metadata, resourceVersion: '9' },
    }
    expect(watchersOf('core/nodes', 'MODIFIED', beat, before)).toEqual([])
    const notReady = newNode('n1', { heartbeat: '2025-01-01T00:05:00Z', ready: false })
    expect(watchersOf('core/nodes', 'MODIFIED', notReady, before)).toEqual(
      expect.arrayContaining(['scheduler', 'daemonset', 'node-lifecycle']),
    )
  })

  it('pod garbage collection wakes for what may leave it a pod to collect, and nothing else', () => {
    const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }
    expect(watchersOf('core/nodes', 'DELETED', node)).toContain('pod-gc')
    expect(watchersOf('core/nodes', 'MODIFIED', node, node)).not.toContain('pod-gc')
    const outOfService: KubeObject = {
      ...node,
      spec: { taints: [{ key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' }] },
    }
    expect(watchersOf('core/nodes', 'MODIFIED', outOfService, node)).toContain('pod-gc')

    expect(watchersOf('core/pods', 'DELETED', pending)).not.toContain('pod-gc')
    expect(watchersOf('core/pods', 'MODIFIED', pending, pending)).not.toContain('pod-gc')
    expect(watchersOf('core/pods', 'MODIFIED', deleting, pending)).toContain('pod-gc')
    const bound = podManifest('p', { namespace: 'default', spec: { nodeName: 'gone' } })
    expect(watchersOf('core/pods', 'ADDED', bound)).toContain('pod-gc')
    const finished: KubeObject = { ...bound, status: { phase: 'Succeeded' } }
    expect(watchersOf('core/pods', 'MODIFIED', finished, bound)).toContain('pod-gc')
    expect(watchersOf('core/pods', 'MODIFIED', finished, finished)).not.toContain('pod-gc')
  })

  it('the garbage collector wakes for owned objects and deletions only', () => {
    const configMap = (meta: Partial<KubeObject['metadata']> = {}): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'default', ...meta },
    })
    expect(watchersOf('core/configmaps', 'ADDED', configMap())).toEqual([])
    expect(watchersOf('core/configmaps', 'DELETED', configMap())).toContain('garbage-collector')
    const owned = configMap({
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u' }],
    })
    expect(watchersOf('core/configmaps', 'ADDED', owned)).toEqual(['garbage-collector'])
    expect(
      watchersOf(
        'core/configmaps',
        'MODIFIED',
        configMap({ deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['orphan'] }),
      ),
    ).toContain('garbage-collector')
    // An owned object's update that leaves its owners and finalizers alone (a status report) does not.
    expect(
      watchersOf('core/configmaps', 'MODIFIED', { ...owned, data: { a: '1' } }, owned),
    ).not.toContain('garbage-collector')
    expect(watchersOf('core/configmaps', 'MODIFIED', configMap(), owned)).toContain(
      'garbage-collector',
    )
  })
})
