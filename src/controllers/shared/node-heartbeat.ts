import type { KubeObject } from '../../apimachinery/types'
import { jsonEqual } from '../../apimachinery/json-value'
import { nodes, sameResource } from '../resources'
import type { WakesOn } from '../runtime/types'

/** A Node as its controllers read it: without what a status report changes every time (heartbeat times, resourceVersion). */
function withoutHeartbeat(node: KubeObject): unknown {
  const { resourceVersion: _rv, managedFields: _mf, ...metadata } = node.metadata
  const status = (node.status ?? {}) as { conditions?: Record<string, unknown>[] }
  const conditions = status.conditions?.map(({ lastHeartbeatTime: _t, ...c }) => c)
  return { ...node, metadata, status: { ...status, conditions } }
}

/** Whether a Node change only reported the node alive again: its heartbeat times moved, nothing else. */
export const heartbeatOnly = (node: KubeObject, previous: KubeObject): boolean =>
  jsonEqual(withoutHeartbeat(node), withoutHeartbeat(previous))

/**
 * `wakesOn`, except that a node's status report that changes nothing but its heartbeat times wakes
 * nobody (a kubelet posts one every 5 minutes even when nothing changed).
 */
export const notOnHeartbeats =
  (wakesOn: WakesOn): WakesOn =>
  (resource, type, object, previous) =>
    sameResource(resource, nodes) &&
    type === 'MODIFIED' &&
    !!previous &&
    heartbeatOnly(object, previous)
      ? false
      : wakesOn(resource, type, object, previous)
