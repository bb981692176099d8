import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import { formatTime } from '../../apimachinery/meta-time'
import type { Cache, Outcome } from '../runtime/types'
import { apiServices, endpoints, services } from '../resources'
import {
  conditionsOf,
  localMessage,
  localReason,
  specOf,
  type ApiServiceCondition,
} from '../../apis/apiregistration/apiservice'

/** The reason an APIService backed by a Service that is there and ready still answers nothing. */
export const notProxiedReason = 'NotProxied'

export const notProxiedMessage = (group: string, version: string): string =>
  `this API server does not proxy aggregated APIs; requests for ${group}/${version} are not served`

interface Port {
  name?: string
  port?: number
}
interface Subset {
  addresses?: unknown[]
  ports?: Port[]
}

/**
 * The Available condition kube-aggregator's availability controller would set, short of the
 * discovery check through the proxy this server does not have: a Local APIService is available;
 * one backed by a Service is not, for upstream's reason when the Service or its endpoints are
 * wanting, and otherwise because its requests are not proxied.
 */
export function availableCondition(
  apiService: KubeObject,
  cache: Cache,
): Omit<ApiServiceCondition, 'lastTransitionTime'> {
  const spec = specOf(apiService)
  const ref = spec.service
  if (!ref) return { type: 'Available', status: 'True', reason: localReason, message: localMessage }
  const unavailable = (reason: string, message: string) => ({
    type: 'Available',
    status: 'False',
    reason,
    message,
  })
  const where = `service/${ref.name ?? ''} in "${ref.namespace ?? ''}"`
  const svc = cache.get(services, ref.namespace ?? '', ref.name ?? '')
  if (!svc) return unavailable('ServiceNotFound', `${where} is not present`)
  const svcSpec = asRecord(svc.spec) as { type?: string; ports?: Port[] }
  if ((svcSpec.type ?? 'ClusterIP') === 'ClusterIP') {
    const port = ref.port ?? 443
    const match = (svcSpec.ports ?? []).find((p) => p.port === port)
    if (!match) return unavailable('ServicePortError', `${where} is not listening on port ${port}`)
    const portName = match.name ?? ''
    const eps = cache.get(endpoints, ref.namespace ?? '', ref.name ?? '')
    if (!eps) return unavailable('EndpointsNotFound', `cannot find endpoints for ${where}`)
    const subsets = (Array.isArray(eps.subsets) ? eps.subsets : []) as Subset[]
    const active = subsets.some(
      (s) =>
        (s.addresses?.length ?? 0) > 0 && (s.ports ?? []).some((p) => (p.name ?? '') === portName),
    )
    if (!active)
      return unavailable(
        'MissingEndpoints',
        `endpoints for ${where} have no addresses with port name "${portName}"`,
      )
  }
  return unavailable(notProxiedReason, notProxiedMessage(spec.group ?? '', spec.version ?? ''))
}

/** Writes the Available condition through `status` when it changed; lastTransitionTime moves only when its status does. */
export function reconcileAvailability(name: string, cache: Cache, now: number): Outcome {
  const apiService = cache.get(apiServices, undefined, name)
  if (!apiService || apiService.metadata.deletionTimestamp) return { actions: [] }
  const want = availableCondition(apiService, cache)
  const conditions = conditionsOf(apiService)
  const current = conditions.find((c) => c.type === 'Available')
  if (
    current &&
    current.status === want.status &&
    current.reason === want.reason &&
    current.message === want.message
  )
    return { actions: [] }
  const lastTransitionTime =
    current && current.status === want.status && current.lastTransitionTime
      ? current.lastTransitionTime
      : formatTime(now)
  const next = [
    ...conditions.filter((c) => c.type !== 'Available'),
    { ...want, lastTransitionTime },
  ]
  return {
    actions: [
      {
        type: 'updateStatus',
        resource: apiServices,
        object: { ...apiService, status: { ...asRecord(apiService.status), conditions: next } },
      },
    ],
  }
}
