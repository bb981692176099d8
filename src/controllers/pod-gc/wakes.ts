import type { KubeObject } from '../../apimachinery/types'
import { nodes, sameResource } from '../resources'
import type { WakesOn } from '../runtime/types'
import { isOutOfService } from './nodes'
import { isTerminated, nodeNameOf } from './pods'

const deleting = (o: KubeObject | undefined) => !!o?.metadata.deletionTimestamp

/**
 * The changes that may give pod GC something to collect, now or after its quarantine: a node
 * deleted or put out of service (its pods), a pod that begins terminating (it may never be
 * scheduled, or its node be out of service), a pod created already bound (its node may not exist),
 * and, while the terminated-pod threshold is on, a pod that finished. Everything else it collects
 * follows from these, by its own deadlines.
 */
export function podGcWakesOn(sweepsTerminated: boolean): WakesOn {
  return (resource, type, object, previous) => {
    if (sameResource(resource, nodes))
      return (
        type === 'DELETED' || isOutOfService(object) !== (!!previous && isOutOfService(previous))
      )
    if (type === 'DELETED') return false
    if (deleting(object) && !deleting(previous)) return true
    if (type === 'ADDED' && nodeNameOf(object)) return true
    return sweepsTerminated && isTerminated(object) && !(previous && isTerminated(previous))
  }
}
