import type { KubeObject } from '../../apimachinery/types'
import { pods, sameResource } from '../resources'
import type { WakesOn } from '../runtime/types'
import { controllerRefOf } from '../../apimachinery/owner-refs'

const labelled = (o: KubeObject | undefined): boolean =>
  !!o && Object.keys(o.metadata.labels ?? {}).length > 0

const phaseOf = (o: KubeObject): unknown => (o.status as { phase?: unknown } | undefined)?.phase

/** A pod that is going away or has finished: it gives back what it held. */
export const podLeaving = (type: string, pod: KubeObject): boolean =>
  type === 'DELETED' ||
  !!pod.metadata.deletionTimestamp ||
  phaseOf(pod) === 'Succeeded' ||
  phaseOf(pod) === 'Failed'

/**
 * For a controller of `kind`: every change to other kinds, and changes to pods it controls or
 * could adopt (an orphan with labels; a pod without labels matches no selector), before or after.
 */
export function wakesOnPodsOf(kind: string): WakesOn {
  const concerns = (o: KubeObject | undefined) => {
    if (!o) return false
    const ref = controllerRefOf(o)
    return ref ? ref.kind === kind : labelled(o)
  }
  return (resource, _type, object, previous) =>
    !sameResource(resource, pods) || concerns(object) || concerns(previous)
}

/** Service selectors are never empty: a pod without labels, before and after, is in no Service. */
export const wakesOnLabelledPods: WakesOn = (resource, _type, object, previous) =>
  !sameResource(resource, pods) || labelled(object) || labelled(previous)
