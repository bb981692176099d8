import type { Env } from '../env'
import type { KubeObject } from '../apimachinery/types'
import { findResource } from '../apis/registry'
import { storeFor } from '../store-client/stores'
import type { PodTarget } from './tunnel-http'

/** Pods are looked up at most once a second per isolate, so a busy Service does not read one per request. */
const podTtlMs = 1_000
const recent = new Map<string, { at: number; pod: Promise<KubeObject | undefined> }>()
const podsDef = findResource('', 'v1', 'pods')!

function recentPod(env: Env, namespace: string, name: string): Promise<KubeObject | undefined> {
  const key = `${namespace}/${name}`
  const now = Date.now()
  const hit = recent.get(key)
  if (hit && now - hit.at < podTtlMs) return hit.pod
  if (recent.size > 1_000) recent.clear()
  const pod = storeFor(env, podsDef)
    .get({ def: podsDef, namespace, name })
    .then((got) => (got.ok ? (JSON.parse(got.value) as KubeObject) : undefined))
  recent.set(key, { at: now, pod })
  pod.catch(() => recent.delete(key))
  return pod
}

/**
 * An endpoint as the pod it names really is: the pod of that namespace and name, bound to the
 * endpoint's node, with its own uid (the node finds a pod by uid, and an Endpoints address's uid
 * is whatever its writer put there). Undefined when there is no such pod there, or the address
 * names another uid.
 */
export async function checkedTarget(env: Env, target: PodTarget): Promise<PodTarget | undefined> {
  const pod = await recentPod(env, target.namespace, target.pod)
  if (!pod || (pod.spec as { nodeName?: string } | undefined)?.nodeName !== target.node) return undefined
  const uid = pod.metadata.uid ?? ''
  if (!uid || (target.podUid && target.podUid !== uid)) return undefined
  return { ...target, podUid: uid }
}
