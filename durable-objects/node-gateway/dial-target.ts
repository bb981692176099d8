import type { KubeObject } from '../../src/apimachinery/types'
import type { Dial } from '../../src/agent-protocol/tunnel-messages'
import {
  endpointTargets,
  nodePortOf,
  type EndpointTarget,
  type ServiceSpec,
} from '../../src/apis/endpoint-targets'

/**
 * What a node may reach on another node, decided from the Service and its Endpoints: a ready
 * endpoint (a pod of the Service's own namespace) of the TCP service port that owns `nodePort`,
 * on a Service of type NodePort or LoadBalancer whose externalTrafficPolicy is not Local, and
 * only at the port the Endpoints name. Anything else is refused with the reason.
 */
export function dialTarget(
  svc: KubeObject,
  eps: KubeObject | undefined,
  dial: Dial,
): EndpointTarget | string {
  const spec = svc.spec as ServiceSpec | undefined
  const name = `${dial.namespace}/${dial.service}`
  const port = nodePortOf(spec, dial.nodePort)
  if (!port) return `service ${name} has no TCP node port ${dial.nodePort}`
  if (spec?.externalTrafficPolicy === 'Local')
    return `service ${name} has externalTrafficPolicy Local: each node serves only its own endpoints`
  const target = endpointTargets(eps, port.name ?? '', dial.namespace).find(
    (t) => t.node === dial.node && t.pod === dial.pod && t.namespace === dial.namespace,
  )
  return (
    target ??
    `pod ${dial.namespace}/${dial.pod} on node "${dial.node}" is not a ready endpoint of service ${name} node port ${dial.nodePort}`
  )
}
