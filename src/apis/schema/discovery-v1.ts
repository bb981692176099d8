/**
 * Structural schema of discovery.k8s.io/v1 (k8s.io/api/discovery/v1) as of Kubernetes v1.32.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import {
  CORE,
  DISCOVERY,
  bool,
  enumOf,
  group,
  int,
  kind,
  listOf,
  mapOf,
  ref,
  required,
  str,
  struct,
} from './dsl'

const d = (name: string, description?: string) => ref(DISCOVERY + name, description)

export const discoveryV1: SchemaSet = group(DISCOVERY, {
  EndpointSlice: kind(
    'EndpointSlice represents a subset of the endpoints that implement a service. For a given service there may be multiple EndpointSlice objects, selected by labels, which must be joined to produce the full set of endpoints.',
    {
      addressType: required(
        enumOf(
          ['IPv4', 'IPv6', 'FQDN'],
          'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type.',
        ),
      ),
      endpoints: required(
        listOf(
          d('Endpoint'),
          'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.',
        ),
      ),
      ports: listOf(
        d('EndpointPort'),
        'ports specifies the list of network ports exposed by each endpoint in this slice.',
      ),
    },
  ),
  Endpoint: struct(
    {
      addresses: required(
        listOf(str(), {
          listType: 'set',
          description:
            'addresses of this endpoint. For EndpointSlices of addressType "IPv4" or "IPv6", the values are IP addresses in canonical form.',
        }),
      ),
      conditions: d(
        'EndpointConditions',
        'conditions contains information about the current status of the endpoint.',
      ),
      hostname: str(
        'hostname of this endpoint. This field may be used by consumers of endpoints to distinguish endpoints from each other.',
      ),
      targetRef: ref(
        CORE + 'ObjectReference',
        'targetRef is a reference to a Kubernetes object that represents this endpoint.',
      ),
      deprecatedTopology: mapOf(
        str(),
        'deprecatedTopology contains topology information part of the v1beta1 API. This field is deprecated.',
      ),
      nodeName: str('nodeName represents the name of the Node hosting this endpoint.'),
      zone: str('zone is the name of the Zone this endpoint exists in.'),
      hints: d(
        'EndpointHints',
        'hints contains information associated with how an endpoint should be consumed.',
      ),
    },
    'Endpoint represents a single logical "backend" implementing a service.',
  ),
  EndpointConditions: struct({
    ready: bool(
      'ready indicates that this endpoint is ready to receive traffic, according to whatever system is managing the endpoint.',
    ),
    serving: bool(
      'serving indicates that this endpoint is able to receive traffic, according to whatever system is managing the endpoint.',
    ),
    terminating: bool('terminating indicates that this endpoint is terminating.'),
  }),
  EndpointHints: struct({
    forZones: listOf(
      d('ForZone'),
      'forZones indicates the zone(s) this endpoint should be consumed by when using topology aware routing.',
    ),
  }),
  ForZone: struct({ name: required(str('name represents the name of the zone.')) }),
  EndpointPort: struct({
    name: str(
      'name represents the name of this port. All ports in an EndpointSlice must have a unique name.',
    ),
    protocol: enumOf(
      ['TCP', 'UDP', 'SCTP'],
      'protocol represents the IP protocol for this port. Must be UDP, TCP, or SCTP. Default is TCP.',
    ),
    port: int(
      "port represents the port number of the endpoint. If the EndpointSlice is derived from a Kubernetes service, this must be set to the service's target port.",
    ),
    appProtocol: str('The application protocol for this port.'),
  }),
})
