import type { ControllerBindings } from '../bindings'
import type { KubeObject, Status } from '../../apimachinery/types'
import { storeFor } from '../../store-client/stores'
import type { InformerCaches } from './cache'
import type { ActionOf } from './actions'
import { pods, resourceDefOf } from '../resources'

export type BindAction = ActionOf<'bind'>

/** Bindings sent to the pods store per call. */
export const bindingsPerCall = 50

/**
 * Writes bindings to the pods store, up to `bindingsPerCall` per call, and records each bound pod
 * in the cache. Answers per binding: undefined when it was written, else the store's refusal.
 * `onCall` is told of each store call.
 */
export async function bindMany(
  env: ControllerBindings,
  caches: InformerCaches,
  binds: readonly BindAction[],
  onCall: () => void = () => {},
): Promise<(Status | undefined)[]> {
  const def = resourceDefOf(pods)
  const store = storeFor(env, def)
  const answers: (Status | undefined)[] = []
  while (answers.length < binds.length) {
    const batch = binds.slice(answers.length, answers.length + bindingsPerCall)
    onCall()
    const results = await store.bindMany(
      def,
      batch.map((b) => ({
        namespace: b.namespace,
        name: b.name,
        nodeName: b.nodeName,
        uid: b.uid,
      })),
    )
    if (results.length === 0) throw new Error('the pods store answered no binding')
    for (const r of results) {
      if (r.object !== undefined) caches.of(pods).put(JSON.parse(r.object) as KubeObject)
      answers.push(r.object !== undefined ? undefined : r.status)
    }
  }
  return answers
}
