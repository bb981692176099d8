/**
 * Structural schema of networking.k8s.io/v1 NetworkPolicy (k8s.io/api/networking/v1) as of
 * Kubernetes v1.32.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import {
  META,
  NETWORKING,
  enumOf,
  group,
  int,
  intOrString,
  kind,
  listOf,
  ref,
  required,
  str,
  struct,
} from './dsl'

const n = (name: string, description?: string) => ref(NETWORKING + name, description)
const selector = (description: string) => ref(META + 'LabelSelector', description)

export const networkingV1Policy: SchemaSet = group(NETWORKING, {
  NetworkPolicy: kind('NetworkPolicy describes what network traffic is allowed for a set of Pods', {
    spec: n(
      'NetworkPolicySpec',
      'spec represents the specification of the desired behavior for this NetworkPolicy.',
    ),
  }),
  NetworkPolicySpec: struct({
    podSelector: selector(
      'podSelector selects the pods to which this NetworkPolicy object applies. An empty selector matches all pods in this namespace.',
    ),
    ingress: listOf(
      n('NetworkPolicyIngressRule'),
      'ingress is a list of ingress rules to be applied to the selected pods.',
    ),
    egress: listOf(
      n('NetworkPolicyEgressRule'),
      'egress is a list of egress rules to be applied to the selected pods.',
    ),
    policyTypes: listOf(
      enumOf(['Egress', 'Ingress']),
      'policyTypes is a list of rule types that the NetworkPolicy relates to. Valid options are ["Ingress"], ["Egress"], or ["Ingress", "Egress"].',
    ),
  }),
  NetworkPolicyIngressRule: struct({
    ports: listOf(
      n('NetworkPolicyPort'),
      'ports is a list of ports which should be made accessible on the pods selected for this rule.',
    ),
    from: listOf(
      n('NetworkPolicyPeer'),
      'from is a list of sources which should be able to access the pods selected for this rule.',
    ),
  }),
  NetworkPolicyEgressRule: struct({
    ports: listOf(
      n('NetworkPolicyPort'),
      'ports is a list of destination ports for outgoing traffic.',
    ),
    to: listOf(
      n('NetworkPolicyPeer'),
      'to is a list of destinations for outgoing traffic of pods selected for this rule.',
    ),
  }),
  NetworkPolicyPort: struct({
    protocol: enumOf(
      ['SCTP', 'TCP', 'UDP'],
      'protocol represents the protocol (TCP, UDP, or SCTP) which traffic must match. If not specified, this field defaults to TCP.',
    ),
    port: intOrString(
      'port represents the port on the given protocol. This can either be a numerical or named port on a pod.',
    ),
    endPort: int(
      'endPort indicates that the range of ports from port to endPort if set, inclusive, should be allowed by the policy.',
    ),
  }),
  NetworkPolicyPeer: struct({
    podSelector: selector('podSelector is a label selector which selects pods.'),
    namespaceSelector: selector(
      'namespaceSelector selects namespaces using cluster-scoped labels.',
    ),
    ipBlock: n('IPBlock', 'ipBlock defines policy on a particular IPBlock.'),
  }),
  IPBlock: struct({
    cidr: required(
      str(
        'cidr is a string representing the IPBlock. Valid examples are "192.168.1.0/24" or "2001:db8::/64"',
      ),
    ),
    except: listOf(
      str(),
      'except is a slice of CIDRs that should not be included within an IPBlock.',
    ),
  }),
})
