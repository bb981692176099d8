import type { KubeObject } from '../../apimachinery/types'
import { formatIPv4, parseCidr } from '../../apimachinery/cidr'
import type { ApiEndpoint } from '../../settings/api-endpoint'

/** The Service (and its Endpoints and EndpointSlice) through which clients in the cluster reach the API. */
export const kubernetesServiceNamespace = 'default'
export const kubernetesServiceName = 'kubernetes'
export const skipMirrorLabel = 'endpointslice.kubernetes.io/skip-mirror'

/** The first address of the service range, which kube-apiserver reserves for its own Service. */
export function apiServiceIp(range: string): string | undefined {
  const cidr = parseCidr(range)
  return cidr && cidr.size > 2 ? formatIPv4(cidr.base + 1) : undefined
}

/** The https port every client dials, and the port the API listens on behind it (443 behind a proxy that serves it there). */
const servicePort = (endpoint: ApiEndpoint | undefined) => ({
  name: 'https',
  protocol: 'TCP',
  port: 443,
  targetPort: endpoint?.port ?? 443,
})

export function desiredService(clusterIP: string, endpoint: ApiEndpoint | undefined): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: kubernetesServiceName,
      namespace: kubernetesServiceNamespace,
      labels: { component: 'apiserver', provider: 'kubernetes' },
    },
    spec: {
      type: 'ClusterIP',
      clusterIP,
      clusterIPs: [clusterIP],
      ports: [servicePort(endpoint)],
      sessionAffinity: 'None',
    },
  }
}

/** The Endpoints: the API's address, or none when it has no IP clients can dial (served at a hostname only). */
export function desiredEndpoints(endpoint: ApiEndpoint | undefined): KubeObject {
  const out: KubeObject = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: {
      name: kubernetesServiceName,
      namespace: kubernetesServiceNamespace,
      labels: { [skipMirrorLabel]: 'true' },
    },
  }
  if (endpoint)
    out.subsets = [
      {
        addresses: [{ ip: endpoint.ip }],
        ports: [{ name: 'https', port: endpoint.port, protocol: 'TCP' }],
      },
    ]
  return out
}

export function desiredEndpointSlice(endpoint: ApiEndpoint | undefined): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: kubernetesServiceName,
      namespace: kubernetesServiceNamespace,
      labels: { 'kubernetes.io/service-name': kubernetesServiceName },
    },
    addressType: 'IPv4',
    endpoints: endpoint ? [{ addresses: [endpoint.ip], conditions: { ready: true } }] : [],
    ports: endpoint ? [{ name: 'https', port: endpoint.port, protocol: 'TCP' }] : [],
  }
}
