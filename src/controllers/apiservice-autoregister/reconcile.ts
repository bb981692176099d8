import type { KubeObject } from '../../apimachinery/types'
import { jsonEqual } from '../../apimachinery/json-value'
import type { Action, Cache, Outcome } from '../runtime/types'
import { apiServices } from '../resources'
import { automanagedLabel, automanagedOnStart } from '../../apis/apiregistration/apiservice'

/**
 * As kube-apiserver's autoregister controller for its `onstart` APIServices: the Local APIService
 * of a served group version exists, and one whose spec was changed gets it back. One a user
 * stripped of the automanaged label is left as it is.
 */
export function reconcileLocalApiService(want: KubeObject | undefined, cache: Cache): Outcome {
  if (!want) return { actions: [] }
  const name = want.metadata.name!
  const current = cache.get(apiServices, undefined, name)
  const actions: Action[] = []
  if (!current)
    actions.push({ type: 'create', resource: apiServices, object: structuredClone(want) })
  else if (
    current.metadata.labels?.[automanagedLabel] === automanagedOnStart &&
    !jsonEqual(current.spec ?? null, want.spec ?? null)
  ) {
    actions.push({
      type: 'update',
      resource: apiServices,
      object: { ...current, spec: structuredClone(want.spec) },
    })
  }
  return { actions }
}
