/**
 * Structural schema of networking.k8s.io/v1 Ingress and IngressClass (k8s.io/api/networking/v1)
 * as of Kubernetes v1.32.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import {
  CORE,
  NETWORKING,
  enumOf,
  group,
  int,
  kind,
  listOf,
  ref,
  required,
  str,
  struct,
} from './dsl'

const n = (name: string, description?: string) => ref(NETWORKING + name, description)

export const networkingV1: SchemaSet = group(NETWORKING, {
  Ingress: kind(
    'Ingress is a collection of rules that allow inbound connections to reach the endpoints defined by a backend. An Ingress can be configured to give services externally-reachable urls, load balance traffic, terminate SSL, offer name based virtual hosting etc.',
    {
      spec: n('IngressSpec', 'spec is the desired state of the Ingress.'),
      status: n('IngressStatus', 'status is the current state of the Ingress.'),
    },
  ),
  IngressSpec: struct({
    ingressClassName: str(
      'ingressClassName is the name of an IngressClass cluster resource. Ingress controller implementations use this field to know whether they should be serving this Ingress resource.',
    ),
    defaultBackend: n(
      'IngressBackend',
      "defaultBackend is the backend that should handle requests that don't match any rule.",
    ),
    tls: listOf(n('IngressTLS'), 'tls represents the TLS configuration.'),
    rules: listOf(
      n('IngressRule'),
      'rules is a list of host rules used to configure the Ingress. If unspecified, or no rule matches, all traffic is sent to the default backend.',
    ),
  }),
  IngressBackend: struct({
    service: n(
      'IngressServiceBackend',
      'service references a service as a backend. This is a mutually exclusive setting with "Resource".',
    ),
    resource: ref(
      CORE + 'TypedLocalObjectReference',
      'resource is an ObjectRef to another Kubernetes resource in the namespace of the Ingress object.',
    ),
  }),
  IngressServiceBackend: struct({
    name: required(
      str(
        'name is the referenced service. The service must exist in the same namespace as the Ingress object.',
      ),
    ),
    port: n(
      'ServiceBackendPort',
      'port of the referenced service. A port name or port number is required for a IngressServiceBackend.',
    ),
  }),
  ServiceBackendPort: struct({
    name: str(
      'name is the name of the port on the Service. This is a mutually exclusive setting with "Number".',
    ),
    number: int(
      'number is the numerical port number (e.g. 80) on the Service. This is a mutually exclusive setting with "Name".',
    ),
  }),
  IngressTLS: struct({
    hosts: listOf(str(), 'hosts is a list of hosts included in the TLS certificate.'),
    secretName: str(
      'secretName is the name of the secret used to terminate TLS traffic on port 443.',
    ),
  }),
  IngressRule: struct({
    host: str('host is the fully qualified domain name of a network host, as defined by RFC 3986.'),
    http: n('HTTPIngressRuleValue'),
  }),
  HTTPIngressRuleValue: struct({
    paths: required(
      listOf(n('HTTPIngressPath'), 'paths is a collection of paths that map requests to backends.'),
    ),
  }),
  HTTPIngressPath: struct({
    path: str('path is matched against the path of an incoming request.'),
    pathType: required(
      enumOf(
        ['Exact', 'Prefix', 'ImplementationSpecific'],
        'pathType determines the interpretation of the path matching.',
      ),
    ),
    backend: required(
      n(
        'IngressBackend',
        'backend defines the referenced service endpoint to which the traffic will be forwarded to.',
      ),
    ),
  }),
  IngressStatus: struct({
    loadBalancer: n(
      'IngressLoadBalancerStatus',
      'loadBalancer contains the current status of the load-balancer.',
    ),
  }),
  IngressLoadBalancerStatus: struct({
    ingress: listOf(
      n('IngressLoadBalancerIngress'),
      'ingress is a list containing ingress points for the load-balancer.',
    ),
  }),
  IngressLoadBalancerIngress: struct({
    ip: str('ip is set for load-balancer ingress points that are IP based.'),
    hostname: str('hostname is set for load-balancer ingress points that are DNS based.'),
    ports: listOf(
      n('IngressPortStatus'),
      'ports provides information about the ports exposed by this LoadBalancer.',
    ),
  }),
  IngressPortStatus: struct({
    port: required(int('port is the port number of the ingress port.')),
    protocol: required(
      enumOf(['TCP', 'UDP', 'SCTP'], 'protocol is the protocol of the ingress port.'),
    ),
    error: str('error is to record the problem with the service port.'),
  }),
  IngressClass: kind(
    'IngressClass represents the class of the Ingress, referenced by the Ingress Spec. The `ingressclass.kubernetes.io/is-default-class` annotation can be used to indicate that an IngressClass should be considered default.',
    { spec: n('IngressClassSpec', 'spec is the desired state of the IngressClass.') },
  ),
  IngressClassSpec: struct({
    controller: str(
      'controller refers to the name of the controller that should handle this class.',
    ),
    parameters: n(
      'IngressClassParametersReference',
      'parameters is a link to a custom resource containing additional configuration for the controller.',
    ),
  }),
  IngressClassParametersReference: struct({
    apiGroup: str('apiGroup is the group for the resource being referenced.'),
    kind: required(str('kind is the type of resource being referenced.')),
    name: required(str('name is the name of resource being referenced.')),
    scope: str('scope represents if this refers to a cluster or namespace scoped resource.'),
    namespace: str('namespace is the namespace of the resource being referenced.'),
  }),
})
