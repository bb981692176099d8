import type { KubeObject } from '../../apimachinery/types'
import type { Action, Cache, Outcome } from '../runtime/types'
import { leaderElectionAnnotation } from './keys'
import { isHeadless, isManagedService, podsOfService } from './service-pods'
import { computeSubsets } from './subsets'
import { jsonEqual } from '../../apimachinery/json-value'
import { splitKey } from '../../apimachinery/object-key'
import { endpoints, services } from '../resources'

/** v1.IsHeadlessService: marks the Endpoints of a service without a cluster IP. */
export const headlessLabel = 'service.kubernetes.io/headless'

/** The Endpoints labels: the service's own, plus the headless marker when it has no cluster IP. */
export function endpointsLabels(svc: KubeObject): Record<string, string> {
  const labels = { ...(svc.metadata.labels ?? {}) }
  if (isHeadless(svc)) labels[headlessLabel] = ''
  else delete labels[headlessLabel]
  return labels
}

/**
 * syncService of the Endpoints controller: a service that is gone takes its Endpoints with it; one
 * without a selector (or of type ExternalName) is left to whoever manages its Endpoints; otherwise
 * the Endpoints named as the service list its pods' addresses, written only when they (or the
 * labels) differ from what is stored.
 */
export function reconcileEndpoints(key: string, cache: Cache): Outcome {
  const { namespace, name } = splitKey(key)
  const svc = cache.get(services, namespace, name)
  const current = cache.get(endpoints, namespace, name)
  if (!svc) {
    if (!current || current.metadata.annotations?.[leaderElectionAnnotation]) return { actions: [] }
    const action: Action = {
      type: 'delete',
      resource: endpoints,
      namespace,
      name,
      preconditions: { uid: current.metadata.uid },
    }
    return { actions: [action] }
  }
  if (!isManagedService(svc)) return { actions: [] }

  const subsets = computeSubsets(svc, podsOfService(svc, cache))
  const labels = endpointsLabels(svc)
  if (
    current &&
    jsonEqual(current.subsets ?? [], subsets) &&
    jsonEqual(current.metadata.labels ?? {}, labels)
  )
    return { actions: [] }

  if (!current) {
    const object: KubeObject = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name, namespace, labels },
    }
    if (subsets.length) object.subsets = subsets
    return { actions: [{ type: 'create', resource: endpoints, object }] }
  }
  // The update carries the resourceVersion it was computed from: a racing write makes it fail and retry.
  const object: KubeObject = { ...current, metadata: { ...current.metadata, labels } }
  if (subsets.length) object.subsets = subsets
  else delete object.subsets
  return { actions: [{ type: 'update', resource: endpoints, object }] }
}
