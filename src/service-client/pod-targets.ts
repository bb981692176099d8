import type { ServiceBindings } from './bindings'
import { findResource } from '../apis/registry'
import { recentObject } from '../store-client/recent-objects'
import type { PodTarget } from './tunnel-http'

/** Pods are looked up at most once a second per isolate, so a busy Service does not read one per request. */
const podTtlMs = 1_000
const podsDef = findResource('', 'v1', 'pods')!

/**
 * An endpoint as the pod it names really is: the pod of that namespace and name, bound to the
 * endpoint's node, with its own uid (the node finds a pod by uid, and an Endpoints address's uid
 * is whatever its writer put there). Undefined when there is no such pod there, or the address
 * names another uid.
 */
export async function checkedTarget(
  env: ServiceBindings,
  target: PodTarget,
): Promise<PodTarget | undefined> {
  const pod = await recentObject(env, podsDef, target.namespace, target.pod, podTtlMs)
  if (!pod || (pod.spec as { nodeName?: string } | undefined)?.nodeName !== target.node)
    return undefined
  const uid = pod.metadata.uid ?? ''
  if (!uid || (target.podUid && target.podUid !== uid)) return undefined
  return { ...target, podUid: uid }
}
