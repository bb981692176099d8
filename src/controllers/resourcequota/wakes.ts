import type { KubeObject } from '../../apimachinery/types'
import { pods, sameResource } from '../resources'
import type { WakesOn } from '../runtime/types'
import { asRecord, sameJson } from '../shared/json'
import { resourceQuotas } from './reconcile'

const terminal = (o: KubeObject) => ['Succeeded', 'Failed'].includes(String(asRecord(o.status).phase))

/**
 * Replenishment, as upstream's quota controller does it: quota admission counts what is created,
 * so the controller recounts when usage is given back (an object deleted, a pod finished or
 * terminating, a Service or claim changing what it uses) and when a quota changes; a full recount
 * runs at every resync.
 */
export const quotaWakesOn: WakesOn = (resource, type, object, previous) => {
  if (sameResource(resource, resourceQuotas) || type === 'DELETED') return true
  if (type === 'ADDED' || !previous) return false
  if (sameResource(resource, pods)) return terminal(object) !== terminal(previous) || !!object.metadata.deletionTimestamp !== !!previous.metadata.deletionTimestamp
  if (resource.group === '' && (resource.plural === 'services' || resource.plural === 'persistentvolumeclaims')) return !sameJson(object.spec, previous.spec)
  return false
}
