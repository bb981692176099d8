/** core/v1 Service: its strategy (upstream's svcStrategy and the REST storage's address allocation). */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord, type Json } from '../../apimachinery/json-value'
import type { KindStrategy } from '../kind-strategy'
import { validateService } from '../validation/core'
import { serviceAddressesFor } from '../service-ips'

export function defaultService(obj: KubeObject): void {
  const spec = asRecord(obj.spec)
  if (!obj.spec) return
  spec.type ??= 'ClusterIP'
  spec.sessionAffinity ??= 'None'
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer')
    spec.externalTrafficPolicy ||= 'Cluster'
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP')
    spec.internalTrafficPolicy ??= 'Cluster'
  for (const p of (spec.ports as Json[] | undefined) ?? []) {
    if (!p || typeof p !== 'object') continue
    p.protocol ??= 'TCP'
    p.targetPort ??= p.port
  }
}

export const serviceStrategy: KindStrategy = {
  defaults: defaultService,
  validate: validateService,
  // ClusterIPs and node ports, checked against the services stored (their store is their only writer).
  allocate: (obj, old, stored, config) =>
    serviceAddressesFor(obj, old, stored, config.serviceClusterIpRange),
}
