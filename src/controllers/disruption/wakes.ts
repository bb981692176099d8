import type { KubeObject } from '../../apimachinery/types'
import { pods, sameResource } from '../resources'
import type { WakesOn } from '../runtime/types'
import { asRecord, jsonEqual } from '../../apimachinery/json-value'
import { isPodReady } from '../shared/pods'
import { podDisruptionBudgets } from './resources'

const labelled = (o: KubeObject | undefined) =>
  !!o && Object.keys(o.metadata.labels ?? {}).length > 0

/**
 * What moves a budget's status: any change to a budget; a labelled pod that goes, becomes ready
 * or unready, starts terminating or is relabelled (a new pod counts once it is ready); an owner created, removed or rescaled.
 */
export const disruptionWakesOn: WakesOn = (resource, type, object, previous) => {
  if (sameResource(resource, podDisruptionBudgets)) return true
  if (sameResource(resource, pods)) {
    if (type === 'ADDED' || !(labelled(object) || labelled(previous))) return false
    if (type === 'DELETED' || !previous) return true
    return (
      isPodReady(object) !== isPodReady(previous) ||
      !!object.metadata.deletionTimestamp !== !!previous.metadata.deletionTimestamp ||
      !jsonEqual(object.metadata.labels, previous.metadata.labels)
    )
  }
  return (
    type !== 'MODIFIED' ||
    !previous ||
    asRecord(object.spec).replicas !== asRecord(previous.spec).replicas
  )
}
