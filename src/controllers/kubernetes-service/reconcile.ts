import type { KubeObject } from '../../apimachinery/types'
import { jsonEqual } from '../../apimachinery/json-value'
import type { Action, Cache, Outcome, ResourceRef } from '../runtime/types'
import { endpointSlices, endpoints, services } from '../resources'
import {
  desiredEndpointSlice,
  desiredEndpoints,
  desiredService,
  kubernetesServiceName as name,
  kubernetesServiceNamespace as namespace,
} from './desired'
import type { ApiEndpoint } from '../../settings/api-endpoint'

const portsOf = (svc: KubeObject) => (svc.spec as { ports?: unknown } | undefined)?.ports
const typeOf = (svc: KubeObject) => (svc.spec as { type?: unknown } | undefined)?.type

/**
 * As kube-apiserver's bootstrap controller: `default/kubernetes` exists with the API's https port
 * (a Service whose ports or type were changed gets them back; its cluster IP is never moved), and
 * its Endpoints and EndpointSlice list the API's address.
 */
export function reconcileKubernetesService(
  cache: Cache,
  clusterIP: string | undefined,
  endpoint: ApiEndpoint | undefined,
): Outcome {
  const actions: Action[] = []
  const svc = cache.get(services, namespace, name)
  if (!svc) {
    if (clusterIP)
      actions.push({
        type: 'create',
        resource: services,
        object: desiredService(clusterIP, endpoint),
      })
  } else {
    const want = desiredService(clusterIP ?? '', endpoint)
    if (!jsonEqual(portsOf(svc), portsOf(want)) || typeOf(svc) !== 'ClusterIP') {
      actions.push({
        type: 'update',
        resource: services,
        object: {
          ...svc,
          spec: { ...(svc.spec as object), type: 'ClusterIP', ports: portsOf(want) },
        },
      })
    }
  }
  actions.push(
    ...keep(cache.get(endpoints, namespace, name), desiredEndpoints(endpoint), endpoints, [
      'subsets',
    ]),
  )
  actions.push(
    ...keep(
      cache.get(endpointSlices, namespace, name),
      desiredEndpointSlice(endpoint),
      endpointSlices,
      ['addressType', 'endpoints', 'ports'],
    ),
  )
  return { actions }
}

/** Creates `want` when missing; puts back its labels and `fields` when they differ, keeping the rest of what is stored. */
function keep(
  current: KubeObject | undefined,
  want: KubeObject,
  resource: ResourceRef,
  fields: string[],
): Action[] {
  if (!current) return [{ type: 'create', resource, object: want }]
  const labels = { ...current.metadata.labels, ...want.metadata.labels }
  const same =
    jsonEqual(current.metadata.labels ?? {}, labels) &&
    fields.every((f) => jsonEqual(current[f] ?? null, want[f] ?? null))
  if (same) return []
  const object: KubeObject = { ...current, metadata: { ...current.metadata, labels } }
  for (const f of fields) {
    if (want[f] === undefined) delete object[f]
    else object[f] = want[f]
  }
  return [{ type: 'update', resource, object }]
}
