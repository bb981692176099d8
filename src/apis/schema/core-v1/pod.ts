/** The Pod, PodTemplate and Binding kinds of core/v1 and the pod-level fields of PodSpec. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, bool, enumOf, group, int, kind, listOf, required, str, struct } from '../dsl'
import { c, labels, localRef, m, quantities, strings } from './shorthands'

export const coreV1Pod: SchemaSet = group(CORE, {
  Pod: kind(
    'Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.',
    {
      spec: c('PodSpec', 'Specification of the desired behavior of the pod.'),
      status: c(
        'PodStatus',
        'Most recently observed status of the pod. This data may not be up to date.',
      ),
    },
  ),
  PodTemplate: kind('PodTemplate describes a template for creating copies of a predefined pod.', {
    template: c(
      'PodTemplateSpec',
      'Template defines the pods that will be created from this pod template.',
    ),
  }),
  PodTemplateSpec: struct(
    {
      metadata: m('ObjectMeta', "Standard object's metadata."),
      spec: c('PodSpec', 'Specification of the desired behavior of the pod.'),
    },
    'PodTemplateSpec describes the data a pod should have when created from a template.',
  ),
  Binding: kind(
    'Binding ties one object to another; for example, a pod is bound to a node by a scheduler.',
    {
      target: required(
        c('ObjectReference', 'The target object that you want to bind to the standard object.'),
      ),
    },
  ),
  PodSpec: struct(
    {
      volumes: listOf(c('Volume'), {
        mergeKey: 'name',
        strategy: 'merge,retainKeys',
        description: 'List of volumes that can be mounted by containers belonging to the pod.',
      }),
      initContainers: listOf(c('Container'), {
        mergeKey: 'name',
        description: 'List of initialization containers belonging to the pod.',
      }),
      containers: required(
        listOf(c('Container'), {
          mergeKey: 'name',
          description:
            'List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod.',
        }),
      ),
      ephemeralContainers: listOf(c('EphemeralContainer'), {
        mergeKey: 'name',
        description:
          'List of ephemeral containers run in this pod. Ephemeral containers may be run in an existing pod to perform user-initiated actions such as debugging.',
      }),
      restartPolicy: enumOf(
        ['Always', 'OnFailure', 'Never'],
        'Restart policy for all containers within the pod. One of Always, OnFailure, Never. Default to Always.',
      ),
      terminationGracePeriodSeconds: int(
        'Optional duration in seconds the pod needs to terminate gracefully. Defaults to 30 seconds.',
      ),
      activeDeadlineSeconds: int(
        'Optional duration in seconds the pod may be active on the node relative to StartTime before the system will actively try to mark it failed and kill associated containers.',
      ),
      dnsPolicy: enumOf(
        ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'],
        'Set DNS policy for the pod. Defaults to "ClusterFirst".',
      ),
      nodeSelector: labels(
        'NodeSelector is a selector which must be true for the pod to fit on a node.',
      ),
      serviceAccountName: str(
        'ServiceAccountName is the name of the ServiceAccount to use to run this pod.',
      ),
      serviceAccount: str(
        'DeprecatedServiceAccount is a deprecated alias for ServiceAccountName. Deprecated: Use serviceAccountName instead.',
      ),
      automountServiceAccountToken: bool(
        'AutomountServiceAccountToken indicates whether a service account token should be automatically mounted.',
      ),
      nodeName: str('NodeName indicates in which node this pod is scheduled.'),
      hostNetwork: bool(
        "Host networking requested for this pod. Use the host's network namespace.",
      ),
      hostPID: bool("Use the host's pid namespace."),
      hostIPC: bool("Use the host's ipc namespace."),
      shareProcessNamespace: bool(
        'Share a single process namespace between all of the containers in a pod.',
      ),
      securityContext: c(
        'PodSecurityContext',
        'SecurityContext holds pod-level security attributes and common container settings.',
      ),
      imagePullSecrets: listOf(localRef(), {
        mergeKey: 'name',
        description:
          'ImagePullSecrets is an optional list of references to secrets in the same namespace to use for pulling any of the images used by this PodSpec.',
      }),
      hostname: str(
        "Specifies the hostname of the Pod. If not specified, the pod's hostname will be set to a system-defined value.",
      ),
      subdomain: str(
        'If specified, the fully qualified Pod hostname will be "<hostname>.<subdomain>.<pod namespace>.svc.<cluster domain>".',
      ),
      affinity: c('Affinity', "If specified, the pod's scheduling constraints"),
      schedulerName: str('If specified, the pod will be dispatched by specified scheduler.'),
      tolerations: listOf(c('Toleration'), "If specified, the pod's tolerations."),
      hostAliases: listOf(c('HostAlias'), {
        mergeKey: 'ip',
        description:
          "HostAliases is an optional list of hosts and IPs that will be injected into the pod's hosts file if specified.",
      }),
      priorityClassName: str("If specified, indicates the pod's priority."),
      priority: int(
        'The priority value. Various system components use this field to find the priority of the pod.',
      ),
      dnsConfig: c('PodDNSConfig', 'Specifies the DNS parameters of a pod.'),
      readinessGates: listOf(
        c('PodReadinessGate'),
        'If specified, all readiness gates will be evaluated for pod readiness.',
      ),
      runtimeClassName: str(
        'RuntimeClassName refers to a RuntimeClass object in the node.k8s.io group, which should be used to run this pod.',
      ),
      enableServiceLinks: bool(
        "EnableServiceLinks indicates whether information about services should be injected into pod's environment variables. Optional: Defaults to true.",
      ),
      preemptionPolicy: enumOf(
        ['PreemptLowerPriority', 'Never'],
        'PreemptionPolicy is the Policy for preempting pods with lower priority.',
      ),
      overhead: quantities(
        'Overhead represents the resource overhead associated with running a pod for a given RuntimeClass.',
      ),
      topologySpreadConstraints: listOf(c('TopologySpreadConstraint'), {
        mergeKey: 'topologyKey',
        mapKeys: ['topologyKey', 'whenUnsatisfiable'],
        description:
          'TopologySpreadConstraints describes how a group of pods ought to spread across topology domains.',
      }),
      setHostnameAsFQDN: bool(
        "If true the pod's hostname will be configured as the pod's FQDN, rather than the leaf name (the default).",
      ),
      os: c('PodOS', 'Specifies the OS of the containers in the pod.'),
      hostUsers: bool("Use the host's user namespace. Optional: Default to true."),
      schedulingGates: listOf(c('PodSchedulingGate'), {
        mergeKey: 'name',
        description:
          'SchedulingGates is an opaque list of values that if specified will block scheduling the pod.',
      }),
      resourceClaims: listOf(c('PodResourceClaim'), {
        mergeKey: 'name',
        strategy: 'merge,retainKeys',
        description:
          'ResourceClaims defines which ResourceClaims must be allocated and reserved before the Pod is allowed to start.',
      }),
      resources: c(
        'ResourceRequirements',
        'Resources is the total amount of CPU and Memory resources required by all containers in the pod.',
      ),
    },
    'PodSpec is a description of a pod.',
  ),
  HostAlias: struct({
    ip: required(str('IP address of the host file entry.')),
    hostnames: strings('Hostnames for the above IP address.'),
  }),
  PodDNSConfig: struct({
    nameservers: strings('A list of DNS name server IP addresses.'),
    searches: strings('A list of DNS search domains for host-name lookup.'),
    options: listOf(c('PodDNSConfigOption'), 'A list of DNS resolver options.'),
  }),
  PodDNSConfigOption: struct({
    name: str("Name is this DNS resolver option's name. Required."),
    value: str("Value is this DNS resolver option's value."),
  }),
  PodReadinessGate: struct({
    conditionType: required(
      str("ConditionType refers to a condition in the pod's condition list with matching type."),
    ),
  }),
  PodOS: struct({
    name: required(
      str(
        'Name is the name of the operating system. The currently supported values are linux and windows.',
      ),
    ),
  }),
  PodSchedulingGate: struct({
    name: required(
      str('Name of the scheduling gate. Each scheduling gate must have a unique name field.'),
    ),
  }),
  PodResourceClaim: struct({
    name: required(str('Name uniquely identifies this resource claim inside the pod.')),
    resourceClaimName: str(
      'ResourceClaimName is the name of a ResourceClaim object in the same namespace as this pod.',
    ),
    resourceClaimTemplateName: str(
      'ResourceClaimTemplateName is the name of a ResourceClaimTemplate object in the same namespace as this pod.',
    ),
  }),
})
