import type { KubeObject } from '../../apimachinery/types'
import { CLEANUP_FINALIZER, conditionsOf, setCondition } from '../../apis/crd/crd-object'
import type { Action, Cache, Outcome } from '../runtime/types'
import { customResourceDefinitions } from '../resources'
import { formatTime } from '../../apimachinery/meta-time'

const crds = customResourceDefinitions

/** How soon a terminating CRD whose objects are not all gone is looked at again. */
export const recheckMs = 1000

/** A CRD being deleted that still holds the cleanup finalizer. */
export const isCleaningUp = (crd: KubeObject | undefined): crd is KubeObject =>
  !!crd?.metadata.deletionTimestamp && (crd.metadata.finalizers ?? []).includes(CLEANUP_FINALIZER)

/**
 * A terminating CRD: mark it Terminating, delete every object of its kind, and (the purge does
 * this once the store is empty) release the finalizer so the CRD itself goes.
 */
export function reconcileCrd(name: string, cache: Cache, now: number): Outcome {
  const crd = cache.get(crds, undefined, name)
  if (!isCleaningUp(crd)) return { actions: [] }
  const actions: Action[] = []
  const terminating = conditionsOf(crd).find((c) => c.type === 'Terminating')
  if (terminating?.status !== 'True') {
    const conditions = setCondition(conditionsOf(crd), {
      type: 'Terminating',
      status: 'True',
      lastTransitionTime: formatTime(now),
      reason: 'InstanceDeletionInProgress',
      message: 'CustomResource deletion is in progress',
    })
    actions.push({
      type: 'patch',
      resource: crds,
      name,
      patch: { status: { conditions } },
      subresource: 'status',
    })
  }
  actions.push({ type: 'purgeCustomResources', crd })
  return { actions, requeueAfterMs: recheckMs }
}
