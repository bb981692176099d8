/** The Service and Endpoints kinds of core/v1, their spec and status. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import {
  CORE,
  bool,
  enumOf,
  group,
  int,
  intOrString,
  kind,
  listOf,
  required,
  str,
  struct,
} from '../dsl'
import { PROTOCOLS, c, labels, m, strings } from './shorthands'

export const coreV1Service: SchemaSet = group(CORE, {
  Service: kind(
    'Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.',
    {
      spec: c('ServiceSpec', 'Spec defines the behavior of a service.'),
      status: c('ServiceStatus', 'Most recently observed status of the service.'),
    },
  ),
  Endpoints: kind('Endpoints is a collection of endpoints that implement the actual service.', {
    subsets: listOf(c('EndpointSubset'), 'The set of all endpoints is the union of all subsets.'),
  }),
  EndpointSubset: struct({
    addresses: listOf(
      c('EndpointAddress'),
      'IP addresses which offer the related ports that are marked as ready.',
    ),
    notReadyAddresses: listOf(
      c('EndpointAddress'),
      'IP addresses which offer the related ports but are not currently marked as ready.',
    ),
    ports: listOf(c('EndpointPort'), 'Port numbers available on the related IP addresses.'),
  }),
  EndpointAddress: struct({
    ip: required(str('The IP of this endpoint.')),
    hostname: str('The Hostname of this endpoint'),
    nodeName: str('Optional: Node hosting this endpoint.'),
    targetRef: c('ObjectReference', 'Reference to object providing the endpoint.'),
  }),
  EndpointPort: struct({
    name: str(
      "The name of this port. This must match the 'name' field in the corresponding ServicePort.",
    ),
    port: required(int('The port number of the endpoint.')),
    protocol: enumOf(
      PROTOCOLS,
      'The IP protocol for this port. Must be UDP, TCP, or SCTP. Default is TCP.',
    ),
    appProtocol: str('The application protocol for this port.'),
  }),
  ServiceSpec: struct(
    {
      ports: listOf(c('ServicePort'), {
        mergeKey: 'port',
        mapKeys: ['port', 'protocol'],
        description: 'The list of ports that are exposed by this service.',
      }),
      selector: labels(
        'Route service traffic to pods with label keys and values matching this selector.',
      ),
      clusterIP: str(
        'clusterIP is the IP address of the service and is usually assigned randomly.',
      ),
      clusterIPs: strings(
        'ClusterIPs is a list of IP addresses assigned to this service, and are usually assigned randomly.',
      ),
      type: enumOf(
        ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'],
        'type determines how the Service is exposed. Defaults to ClusterIP.',
      ),
      externalIPs: strings(
        'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.',
      ),
      sessionAffinity: enumOf(
        ['ClientIP', 'None'],
        'Supports "ClientIP" and "None". Used to maintain session affinity. Defaults to None.',
      ),
      loadBalancerIP: str(
        'Only applies to Service Type: LoadBalancer. Deprecated: This field was under-specified and its meaning varies across implementations.',
      ),
      loadBalancerSourceRanges: strings(
        'If specified and supported by the platform, this will restrict traffic through the cloud-provider load-balancer will be restricted to the specified client IPs.',
      ),
      externalName: str(
        'externalName is the external reference that discovery mechanisms will return as an alias for this service (e.g. a DNS CNAME record).',
      ),
      externalTrafficPolicy: enumOf(
        ['Cluster', 'Local'],
        'externalTrafficPolicy describes how nodes distribute service traffic they receive on one of the Service\'s "externally-facing" addresses.',
      ),
      healthCheckNodePort: int(
        'healthCheckNodePort specifies the healthcheck nodePort for the service.',
      ),
      publishNotReadyAddresses: bool(
        'publishNotReadyAddresses indicates that any agent which deals with endpoints for this Service should disregard any indications of ready/not-ready.',
      ),
      sessionAffinityConfig: c(
        'SessionAffinityConfig',
        'sessionAffinityConfig contains the configurations of session affinity.',
      ),
      ipFamilies: strings(
        'IPFamilies is a list of IP families (e.g. IPv4, IPv6) assigned to this service.',
      ),
      ipFamilyPolicy: enumOf(
        ['SingleStack', 'PreferDualStack', 'RequireDualStack'],
        'IPFamilyPolicy represents the dual-stack-ness requested or required by this Service.',
      ),
      allocateLoadBalancerNodePorts: bool(
        'allocateLoadBalancerNodePorts defines if NodePorts will be automatically allocated for services with type LoadBalancer. Default is "true".',
      ),
      loadBalancerClass: str(
        'loadBalancerClass is the class of the load balancer implementation this Service belongs to.',
      ),
      internalTrafficPolicy: enumOf(
        ['Cluster', 'Local'],
        'InternalTrafficPolicy describes how nodes distribute service traffic they receive on the ClusterIP.',
      ),
      trafficDistribution: str(
        'TrafficDistribution offers a way to express preferences for how traffic is distributed to Service endpoints.',
      ),
    },
    'ServiceSpec describes the attributes that a user creates on a service.',
  ),
  ServicePort: struct({
    name: str('The name of this port within the service. This must be a DNS_LABEL.'),
    protocol: enumOf(
      PROTOCOLS,
      'The IP protocol for this port. Supports "TCP", "UDP", and "SCTP". Default is TCP.',
    ),
    appProtocol: str('The application protocol for this port.'),
    port: required(int('The port that will be exposed by this service.')),
    targetPort: intOrString(
      'Number or name of the port to access on the pods targeted by the service.',
    ),
    nodePort: int(
      'The port on each node on which this service is exposed when type is NodePort or LoadBalancer.',
    ),
  }),
  SessionAffinityConfig: struct({
    clientIP: c(
      'ClientIPConfig',
      'clientIP contains the configurations of Client IP based session affinity.',
    ),
  }),
  ClientIPConfig: struct({
    timeoutSeconds: int(
      'timeoutSeconds specifies the seconds of ClientIP type session sticky time. Default value is 10800 (for 3 hours).',
    ),
  }),
  ServiceStatus: struct({
    loadBalancer: c(
      'LoadBalancerStatus',
      'LoadBalancer contains the current status of the load-balancer, if one is present.',
    ),
    conditions: listOf(m('Condition'), { mergeKey: 'type', description: 'Current service state' }),
  }),
  LoadBalancerStatus: struct({
    ingress: listOf(
      c('LoadBalancerIngress'),
      'Ingress is a list containing ingress points for the load-balancer.',
    ),
  }),
  LoadBalancerIngress: struct({
    ip: str(
      'IP is set for load-balancer ingress points that are IP based (typically GCE or OpenStack load-balancers)',
    ),
    hostname: str(
      'Hostname is set for load-balancer ingress points that are DNS based (typically AWS load-balancers)',
    ),
    ipMode: enumOf(
      ['VIP', 'Proxy'],
      'IPMode specifies how the load-balancer IP behaves, and may only be specified when the ip field is specified.',
    ),
    ports: listOf(c('PortStatus'), 'Ports is a list of records of service ports'),
  }),
  PortStatus: struct({
    port: required(
      int('Port is the port number of the service port of which status is recorded here'),
    ),
    protocol: required(
      enumOf(
        PROTOCOLS,
        'Protocol is the protocol of the service port of which status is recorded here',
      ),
    ),
    error: str('Error is to record the problem with the service port'),
  }),
})
