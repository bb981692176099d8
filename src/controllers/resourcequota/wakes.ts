import type { KubeObject } from '../../apimachinery/types'
import { pods, sameResource } from '../resources'
import type { WakesOn } from '../runtime/types'
import { asRecord, jsonEqual } from '../../apimachinery/json-value'
import { quantityListJson, quantityListOf } from '../../apimachinery/quantity'
import { resourceQuotas } from './reconcile'

const terminal = (o: KubeObject) =>
  ['Succeeded', 'Failed'].includes(String(asRecord(o.status).phase))

/**
 * A quota's change that asks for a recount: a new quota, or its spec changed, or its status.hard
 * not yet its spec.hard. Never admission's charge (status.used only): recounting then, while the
 * object charged for is not yet stored, would give its unit back and let the next create past the
 * quota (upstream's controller ignores status updates for the same reason).
 */
function quotaChanged(object: KubeObject, previous: KubeObject | undefined): boolean {
  if (!previous || !jsonEqual(object.spec, previous.spec)) return true
  return !jsonEqual(
    asRecord(object.status).hard,
    quantityListJson(quantityListOf(asRecord(object.spec).hard)),
  )
}

/**
 * Replenishment, as upstream's quota controller does it: quota admission counts what is created,
 * so the controller recounts when usage is given back (an object deleted, a pod finished or
 * terminating, a Service or claim changing what it uses) and when a quota's limits change; each
 * quota is recounted every sync period too (quotaSyncPeriodMs).
 */
export const quotaWakesOn: WakesOn = (resource, type, object, previous) => {
  if (type === 'DELETED') return true
  if (sameResource(resource, resourceQuotas))
    return type === 'ADDED' || quotaChanged(object, previous)
  if (type === 'ADDED' || !previous) return false
  if (sameResource(resource, pods))
    return (
      terminal(object) !== terminal(previous) ||
      !!object.metadata.deletionTimestamp !== !!previous.metadata.deletionTimestamp
    )
  if (
    resource.group === '' &&
    (resource.plural === 'services' || resource.plural === 'persistentvolumeclaims')
  )
    return !jsonEqual(object.spec, previous.spec)
  return false
}
