/**
 * Structural schema of core/v1 (k8s.io/api/core/v1) as of Kubernetes v1.32: the served kinds and
 * every struct they embed, including those other groups embed (PodTemplateSpec,
 * PersistentVolumeClaim, ObjectReference).
 */
import type { FieldDef, SchemaSet } from '../../apimachinery/schema-types'
import {
  CORE,
  META,
  bool,
  bytes,
  enumOf,
  group,
  int,
  intOrString,
  kind,
  listOf,
  mapOf,
  quantity,
  ref,
  required,
  str,
  struct,
  time,
} from './dsl'

const c = (name: string, description?: string) => ref(CORE + name, description)
const m = (name: string, description?: string) => ref(META + name, description)
const strings = (description?: string) => listOf(str(), description)
const quantities = (description?: string) => mapOf(quantity(), description)
const labels = (description?: string) => mapOf(str(), description)

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'] as const
const CONDITION_STATUS = ['True', 'False', 'Unknown'] as const

/** Container and EphemeralContainer share every field (EphemeralContainerCommon mirrors Container). */
const containerFields = (): Record<string, FieldDef> => ({
  name: required(str('Name of the container specified as a DNS_LABEL. Each container in a pod must have a unique name. Cannot be updated.')),
  image: str('Container image name.'),
  command: strings('Entrypoint array. Not executed within a shell. The container image\'s ENTRYPOINT is used if this is not provided.'),
  args: strings('Arguments to the entrypoint. The container image\'s CMD is used if this is not provided.'),
  workingDir: str("Container's working directory. If not specified, the container runtime's default will be used."),
  ports: listOf(c('ContainerPort'), {
    mergeKey: 'containerPort',
    mapKeys: ['containerPort', 'protocol'],
    description: 'List of ports to expose from the container.',
  }),
  envFrom: listOf(c('EnvFromSource'), 'List of sources to populate environment variables in the container.'),
  env: listOf(c('EnvVar'), { mergeKey: 'name', description: 'List of environment variables to set in the container. Cannot be updated.' }),
  resources: c('ResourceRequirements', 'Compute Resources required by this container.'),
  resizePolicy: listOf(c('ContainerResizePolicy'), 'Resources resize policy for the container.'),
  restartPolicy: str('RestartPolicy defines the restart behavior of individual containers in a pod. The only allowed value is "Always", for init containers.'),
  volumeMounts: listOf(c('VolumeMount'), { mergeKey: 'mountPath', description: "Pod volumes to mount into the container's filesystem. Cannot be updated." }),
  volumeDevices: listOf(c('VolumeDevice'), { mergeKey: 'devicePath', description: 'volumeDevices is the list of block devices to be used by the container.' }),
  livenessProbe: c('Probe', 'Periodic probe of container liveness. Container will be restarted if the probe fails.'),
  readinessProbe: c('Probe', 'Periodic probe of container service readiness. Container will be removed from service endpoints if the probe fails.'),
  startupProbe: c('Probe', 'StartupProbe indicates that the Pod has successfully initialized.'),
  lifecycle: c('Lifecycle', 'Actions that the management system should take in response to container lifecycle events.'),
  terminationMessagePath: str("Path at which the file to which the container's termination message will be written is mounted."),
  terminationMessagePolicy: enumOf(['File', 'FallbackToLogsOnError'], 'Indicate how the termination message should be populated.'),
  imagePullPolicy: enumOf(['Always', 'Never', 'IfNotPresent'], 'Image pull policy. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise.'),
  securityContext: c('SecurityContext', 'SecurityContext defines the security options the container should be run with.'),
  stdin: bool('Whether this container should allocate a buffer for stdin in the container runtime.'),
  stdinOnce: bool('Whether the container runtime should close the stdin channel after it has been opened by a single attach.'),
  tty: bool("Whether this container should allocate a TTY for itself, also requires 'stdin' to be true."),
})

const keySelector = () => ({
  name: str('Name of the referent.'),
  key: required(str('The key to select.')),
  optional: bool('Specify whether the referent or its key must be defined.'),
})

const localRef = (description?: string) => c('LocalObjectReference', description)

export const coreV1: SchemaSet = group(CORE, {
  // ---- kinds ----
  Namespace: kind('Namespace provides a scope for Names. Use of multiple namespaces is optional.', {
    spec: c('NamespaceSpec', 'Spec defines the behavior of the Namespace.'),
    status: c('NamespaceStatus', 'Status describes the current status of a Namespace.'),
  }),
  NamespaceSpec: struct({
    finalizers: strings('Finalizers is an opaque list of values that must be empty to permanently remove object from storage.'),
  }),
  NamespaceStatus: struct({
    phase: enumOf(['Active', 'Terminating'], 'Phase is the current lifecycle phase of the namespace.'),
    conditions: listOf(c('NamespaceCondition'), { mergeKey: 'type', description: "Represents the latest available observations of a namespace's current state." }),
  }),
  NamespaceCondition: struct({
    type: required(str('Type of namespace controller condition.')),
    status: required(enumOf(CONDITION_STATUS, 'Status of the condition, one of True, False, Unknown.')),
    lastTransitionTime: time('Last time the condition transitioned from one status to another.'),
    reason: str("Unique, one-word, CamelCase reason for the condition's last transition."),
    message: str('Human-readable message indicating details about last transition.'),
  }),

  Pod: kind(
    'Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.',
    {
      spec: c('PodSpec', 'Specification of the desired behavior of the pod.'),
      status: c('PodStatus', 'Most recently observed status of the pod. This data may not be up to date.'),
    },
  ),
  PodTemplate: kind('PodTemplate describes a template for creating copies of a predefined pod.', {
    template: c('PodTemplateSpec', 'Template defines the pods that will be created from this pod template.'),
  }),
  PodTemplateSpec: struct(
    {
      metadata: m('ObjectMeta', "Standard object's metadata."),
      spec: c('PodSpec', 'Specification of the desired behavior of the pod.'),
    },
    'PodTemplateSpec describes the data a pod should have when created from a template.',
  ),
  Binding: kind('Binding ties one object to another; for example, a pod is bound to a node by a scheduler.', {
    target: required(c('ObjectReference', 'The target object that you want to bind to the standard object.')),
  }),

  Node: kind('Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).', {
    spec: c('NodeSpec', 'Spec defines the behavior of a node.'),
    status: c('NodeStatus', 'Most recently observed status of the node.'),
  }),

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
    addresses: listOf(c('EndpointAddress'), 'IP addresses which offer the related ports that are marked as ready.'),
    notReadyAddresses: listOf(c('EndpointAddress'), 'IP addresses which offer the related ports but are not currently marked as ready.'),
    ports: listOf(c('EndpointPort'), 'Port numbers available on the related IP addresses.'),
  }),
  EndpointAddress: struct({
    ip: required(str('The IP of this endpoint.')),
    hostname: str('The Hostname of this endpoint'),
    nodeName: str('Optional: Node hosting this endpoint.'),
    targetRef: c('ObjectReference', 'Reference to object providing the endpoint.'),
  }),
  EndpointPort: struct({
    name: str('The name of this port. This must match the \'name\' field in the corresponding ServicePort.'),
    port: required(int('The port number of the endpoint.')),
    protocol: enumOf(PROTOCOLS, 'The IP protocol for this port. Must be UDP, TCP, or SCTP. Default is TCP.'),
    appProtocol: str('The application protocol for this port.'),
  }),

  ConfigMap: kind('ConfigMap holds configuration data for pods to consume.', {
    immutable: bool('Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified).'),
    data: labels('Data contains the configuration data. Each key must consist of alphanumeric characters, \'-\', \'_\' or \'.\'.'),
    binaryData: mapOf(bytes(), 'BinaryData contains the binary data. Each key must consist of alphanumeric characters, \'-\', \'_\' or \'.\'.'),
  }),

  Secret: kind('Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.', {
    immutable: bool('Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified).'),
    data: mapOf(bytes(), 'Data contains the secret data. The serialized form of the secret data is a base64 encoded string.'),
    stringData: labels('stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience.'),
    type: str('Used to facilitate programmatic handling of secret data.'),
  }),

  Event: kind('Event is a report of an event somewhere in the cluster.', {
    involvedObject: required(c('ObjectReference', 'The object that this event is about.')),
    reason: str("This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
    message: str('A human-readable description of the status of this operation.'),
    source: c('EventSource', 'The component reporting this event. Should be a short machine understandable string.'),
    firstTimestamp: time('The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)'),
    lastTimestamp: time('The time at which the most recent occurrence of this event was recorded.'),
    count: int('The number of times this event has occurred.'),
    type: enumOf(['Normal', 'Warning'], 'Type of this event (Normal, Warning), new types could be added in the future'),
    eventTime: time('Time when this Event was first observed.'),
    series: c('EventSeries', 'Data about the Event series this event represents or nil if it\'s a singleton Event.'),
    action: str('What action was taken/failed regarding to the Regarding object.'),
    related: c('ObjectReference', 'Optional secondary object for more complex actions.'),
    reportingComponent: str('Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.'),
    reportingInstance: str('ID of the controller instance, e.g. `kubelet-xyzf`.'),
  }),
  EventSource: struct({
    component: str('Component from which the event is generated.'),
    host: str('Node name on which the event is generated.'),
  }),
  EventSeries: struct({
    count: int('Number of occurrences in this series up to the last heartbeat time'),
    lastObservedTime: time('Time of the last occurrence observed'),
  }),

  ServiceAccount: kind(
    'ServiceAccount binds together: a name, understood by users, and perhaps by peripheral systems, for an identity; a principal that can be authenticated and authorized; a set of secrets.',
    {
      secrets: listOf(c('ObjectReference'), { mergeKey: 'name', description: 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.' }),
      imagePullSecrets: listOf(localRef(), 'ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount.'),
      automountServiceAccountToken: bool('AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted.'),
    },
  ),

  PersistentVolumeClaim: kind("PersistentVolumeClaim is a user's request for and claim to a persistent volume", {
    spec: c('PersistentVolumeClaimSpec', 'spec defines the desired characteristics of a volume requested by a pod author.'),
    status: c('PersistentVolumeClaimStatus', 'status represents the current information/status of a persistent volume claim.'),
  }),

  // ---- references ----
  ObjectReference: struct(
    {
      kind: str('Kind of the referent.'),
      namespace: str('Namespace of the referent.'),
      name: str('Name of the referent.'),
      uid: str('UID of the referent.'),
      apiVersion: str('API version of the referent.'),
      resourceVersion: str('Specific resourceVersion to which this reference is made, if any.'),
      fieldPath: str('If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].'),
    },
    'ObjectReference contains enough information to let you inspect or modify the referred object.',
  ),
  LocalObjectReference: struct(
    { name: str('Name of the referent.') },
    'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
  ),
  TypedLocalObjectReference: struct({
    apiGroup: str('APIGroup is the group for the resource being referenced.'),
    kind: required(str('Kind is the type of resource being referenced')),
    name: required(str('Name is the name of resource being referenced')),
  }),
  TypedObjectReference: struct({
    apiGroup: str('APIGroup is the group for the resource being referenced.'),
    kind: required(str('Kind is the type of resource being referenced')),
    name: required(str('Name is the name of resource being referenced')),
    namespace: str('Namespace is the namespace of resource being referenced'),
  }),

  // ---- PodSpec ----
  PodSpec: struct(
    {
      volumes: listOf(c('Volume'), {
        mergeKey: 'name',
        strategy: 'merge,retainKeys',
        description: 'List of volumes that can be mounted by containers belonging to the pod.',
      }),
      initContainers: listOf(c('Container'), { mergeKey: 'name', description: 'List of initialization containers belonging to the pod.' }),
      containers: required(listOf(c('Container'), {
        mergeKey: 'name',
        description: 'List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod.',
      })),
      ephemeralContainers: listOf(c('EphemeralContainer'), {
        mergeKey: 'name',
        description: 'List of ephemeral containers run in this pod. Ephemeral containers may be run in an existing pod to perform user-initiated actions such as debugging.',
      }),
      restartPolicy: enumOf(['Always', 'OnFailure', 'Never'], 'Restart policy for all containers within the pod. One of Always, OnFailure, Never. Default to Always.'),
      terminationGracePeriodSeconds: int('Optional duration in seconds the pod needs to terminate gracefully. Defaults to 30 seconds.'),
      activeDeadlineSeconds: int('Optional duration in seconds the pod may be active on the node relative to StartTime before the system will actively try to mark it failed and kill associated containers.'),
      dnsPolicy: enumOf(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'], "Set DNS policy for the pod. Defaults to \"ClusterFirst\"."),
      nodeSelector: labels('NodeSelector is a selector which must be true for the pod to fit on a node.'),
      serviceAccountName: str('ServiceAccountName is the name of the ServiceAccount to use to run this pod.'),
      serviceAccount: str('DeprecatedServiceAccount is a deprecated alias for ServiceAccountName. Deprecated: Use serviceAccountName instead.'),
      automountServiceAccountToken: bool('AutomountServiceAccountToken indicates whether a service account token should be automatically mounted.'),
      nodeName: str('NodeName indicates in which node this pod is scheduled.'),
      hostNetwork: bool("Host networking requested for this pod. Use the host's network namespace."),
      hostPID: bool("Use the host's pid namespace."),
      hostIPC: bool("Use the host's ipc namespace."),
      shareProcessNamespace: bool('Share a single process namespace between all of the containers in a pod.'),
      securityContext: c('PodSecurityContext', 'SecurityContext holds pod-level security attributes and common container settings.'),
      imagePullSecrets: listOf(localRef(), {
        mergeKey: 'name',
        description: 'ImagePullSecrets is an optional list of references to secrets in the same namespace to use for pulling any of the images used by this PodSpec.',
      }),
      hostname: str("Specifies the hostname of the Pod. If not specified, the pod's hostname will be set to a system-defined value."),
      subdomain: str('If specified, the fully qualified Pod hostname will be "<hostname>.<subdomain>.<pod namespace>.svc.<cluster domain>".'),
      affinity: c('Affinity', "If specified, the pod's scheduling constraints"),
      schedulerName: str('If specified, the pod will be dispatched by specified scheduler.'),
      tolerations: listOf(c('Toleration'), "If specified, the pod's tolerations."),
      hostAliases: listOf(c('HostAlias'), { mergeKey: 'ip', description: "HostAliases is an optional list of hosts and IPs that will be injected into the pod's hosts file if specified." }),
      priorityClassName: str('If specified, indicates the pod\'s priority.'),
      priority: int('The priority value. Various system components use this field to find the priority of the pod.'),
      dnsConfig: c('PodDNSConfig', 'Specifies the DNS parameters of a pod.'),
      readinessGates: listOf(c('PodReadinessGate'), 'If specified, all readiness gates will be evaluated for pod readiness.'),
      runtimeClassName: str('RuntimeClassName refers to a RuntimeClass object in the node.k8s.io group, which should be used to run this pod.'),
      enableServiceLinks: bool("EnableServiceLinks indicates whether information about services should be injected into pod's environment variables. Optional: Defaults to true."),
      preemptionPolicy: enumOf(['PreemptLowerPriority', 'Never'], 'PreemptionPolicy is the Policy for preempting pods with lower priority.'),
      overhead: quantities('Overhead represents the resource overhead associated with running a pod for a given RuntimeClass.'),
      topologySpreadConstraints: listOf(c('TopologySpreadConstraint'), {
        mergeKey: 'topologyKey',
        mapKeys: ['topologyKey', 'whenUnsatisfiable'],
        description: 'TopologySpreadConstraints describes how a group of pods ought to spread across topology domains.',
      }),
      setHostnameAsFQDN: bool("If true the pod's hostname will be configured as the pod's FQDN, rather than the leaf name (the default)."),
      os: c('PodOS', 'Specifies the OS of the containers in the pod.'),
      hostUsers: bool("Use the host's user namespace. Optional: Default to true."),
      schedulingGates: listOf(c('PodSchedulingGate'), { mergeKey: 'name', description: 'SchedulingGates is an opaque list of values that if specified will block scheduling the pod.' }),
      resourceClaims: listOf(c('PodResourceClaim'), {
        mergeKey: 'name',
        strategy: 'merge,retainKeys',
        description: 'ResourceClaims defines which ResourceClaims must be allocated and reserved before the Pod is allowed to start.',
      }),
      resources: c('ResourceRequirements', 'Resources is the total amount of CPU and Memory resources required by all containers in the pod.'),
    },
    'PodSpec is a description of a pod.',
  ),
  Container: struct(containerFields(), 'A single application container that you want to run within a pod.'),
  EphemeralContainer: struct(
    {
      ...containerFields(),
      targetContainerName: str('If set, the name of the container from PodSpec that this ephemeral container targets.'),
    },
    'An EphemeralContainer is a temporary container that you may add to an existing Pod for user-initiated activities such as debugging.',
  ),
  ContainerPort: struct({
    name: str('If specified, this must be an IANA_SVC_NAME and unique within the pod.'),
    hostPort: int('Number of port to expose on the host.'),
    containerPort: required(int("Number of port to expose on the pod's IP address. This must be a valid port number, 0 < x < 65536.")),
    protocol: enumOf(PROTOCOLS, 'Protocol for port. Must be UDP, TCP, or SCTP. Defaults to "TCP".'),
    hostIP: str('What host IP to bind the external port to.'),
  }),
  EnvFromSource: struct({
    prefix: str('An optional identifier to prepend to each key in the ConfigMap. Must be a C_IDENTIFIER.'),
    configMapRef: c('ConfigMapEnvSource', 'The ConfigMap to select from'),
    secretRef: c('SecretEnvSource', 'The Secret to select from'),
  }),
  ConfigMapEnvSource: struct({ name: str('Name of the referent.'), optional: bool('Specify whether the ConfigMap must be defined') }),
  SecretEnvSource: struct({ name: str('Name of the referent.'), optional: bool('Specify whether the Secret must be defined') }),
  EnvVar: struct(
    {
      name: required(str('Name of the environment variable. Must be a C_IDENTIFIER.')),
      value: str('Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables.'),
      valueFrom: c('EnvVarSource', "Source for the environment variable's value. Cannot be used if value is not empty."),
    },
    'EnvVar represents an environment variable present in a Container.',
  ),
  EnvVarSource: struct({
    fieldRef: c('ObjectFieldSelector', 'Selects a field of the pod.'),
    resourceFieldRef: c('ResourceFieldSelector', 'Selects a resource of the container: only resources limits and requests are currently supported.'),
    configMapKeyRef: c('ConfigMapKeySelector', 'Selects a key of a ConfigMap.'),
    secretKeyRef: c('SecretKeySelector', "Selects a key of a secret in the pod's namespace"),
  }),
  ObjectFieldSelector: struct({
    apiVersion: str('Version of the schema the FieldPath is written in terms of, defaults to "v1".'),
    fieldPath: required(str('Path of the field to select in the specified API version.')),
  }),
  ResourceFieldSelector: struct({
    containerName: str('Container name: required for volumes, optional for env vars'),
    resource: required(str('Required: resource to select')),
    divisor: quantity('Specifies the output format of the exposed resources, defaults to "1"'),
  }),
  ConfigMapKeySelector: struct(keySelector()),
  SecretKeySelector: struct(keySelector()),
  ResourceRequirements: struct(
    {
      limits: quantities('Limits describes the maximum amount of compute resources allowed.'),
      requests: quantities('Requests describes the minimum amount of compute resources required.'),
      claims: listOf(c('ResourceClaim'), {
        mapKeys: ['name'],
        description: 'Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container.',
      }),
    },
    'ResourceRequirements describes the compute resource requirements.',
  ),
  ResourceClaim: struct({
    name: required(str('Name must match the name of one entry in pod.spec.resourceClaims of the Pod where this field is used.')),
    request: str('Request is the name chosen for a request in the referenced claim.'),
  }),
  ContainerResizePolicy: struct({
    resourceName: required(str('Name of the resource to which this resource resize policy applies. Supported values: cpu, memory.')),
    restartPolicy: required(enumOf(['NotRequired', 'RestartContainer'], 'Restart policy to apply when specified resource is resized.')),
  }),
  VolumeMount: struct(
    {
      name: required(str('This must match the Name of a Volume.')),
      readOnly: bool('Mounted read-only if true, read-write otherwise (false or unspecified). Defaults to false.'),
      recursiveReadOnly: enumOf(['Disabled', 'IfPossible', 'Enabled'], 'RecursiveReadOnly specifies whether read-only mounts should be handled recursively.'),
      mountPath: required(str("Path within the container at which the volume should be mounted. Must not contain ':'.")),
      subPath: str("Path within the volume from which the container's volume should be mounted. Defaults to \"\" (volume's root)."),
      mountPropagation: enumOf(['None', 'HostToContainer', 'Bidirectional'], 'mountPropagation determines how mounts are propagated from the host to container and the other way around.'),
      subPathExpr: str("Expanded path within the volume from which the container's volume should be mounted."),
    },
    'VolumeMount describes a mounting of a Volume within a container.',
  ),
  VolumeDevice: struct({
    name: required(str('name must match the name of a persistentVolumeClaim in the pod')),
    devicePath: required(str('devicePath is the path inside of the container that the device will be mapped to.')),
  }),
  Probe: struct(
    {
      exec: c('ExecAction', 'Exec specifies a command to execute in the container.'),
      httpGet: c('HTTPGetAction', 'HTTPGet specifies an HTTP GET request to perform.'),
      tcpSocket: c('TCPSocketAction', 'TCPSocket specifies a connection to a TCP port.'),
      grpc: c('GRPCAction', 'GRPC specifies a GRPC HealthCheckRequest.'),
      initialDelaySeconds: int('Number of seconds after the container has started before liveness probes are initiated.'),
      timeoutSeconds: int('Number of seconds after which the probe times out. Defaults to 1 second. Minimum value is 1.'),
      periodSeconds: int('How often (in seconds) to perform the probe. Default to 10 seconds. Minimum value is 1.'),
      successThreshold: int('Minimum consecutive successes for the probe to be considered successful after having failed. Defaults to 1.'),
      failureThreshold: int('Minimum consecutive failures for the probe to be considered failed after having succeeded. Defaults to 3.'),
      terminationGracePeriodSeconds: int('Optional duration in seconds the pod needs to terminate gracefully upon probe failure.'),
    },
    'Probe describes a health check to be performed against a container to determine whether it is alive or ready to receive traffic.',
  ),
  ExecAction: struct({
    command: strings('Command is the command line to execute inside the container, the working directory for the command is root (\'/\') in the container\'s filesystem.'),
  }),
  HTTPGetAction: struct({
    path: str('Path to access on the HTTP server.'),
    port: required(intOrString('Name or number of the port to access on the container.')),
    host: str('Host name to connect to, defaults to the pod IP.'),
    scheme: enumOf(['HTTP', 'HTTPS'], 'Scheme to use for connecting to the host. Defaults to HTTP.'),
    httpHeaders: listOf(c('HTTPHeader'), 'Custom headers to set in the request. HTTP allows repeated headers.'),
  }),
  HTTPHeader: struct({
    name: required(str('The header field name.')),
    value: required(str('The header field value')),
  }),
  TCPSocketAction: struct({
    port: required(intOrString('Number or name of the port to access on the container.')),
    host: str('Optional: Host name to connect to, defaults to the pod IP.'),
  }),
  GRPCAction: struct({
    port: required(int('Port number of the gRPC service. Number must be in the range 1 to 65535.')),
    service: str('Service is the name of the service to place in the gRPC HealthCheckRequest.'),
  }),
  Lifecycle: struct({
    postStart: c('LifecycleHandler', 'PostStart is called immediately after a container is created.'),
    preStop: c('LifecycleHandler', 'PreStop is called immediately before a container is terminated due to an API request or management event.'),
  }),
  LifecycleHandler: struct({
    exec: c('ExecAction', 'Exec specifies a command to execute in the container.'),
    httpGet: c('HTTPGetAction', 'HTTPGet specifies an HTTP GET request to perform.'),
    tcpSocket: c('TCPSocketAction', 'Deprecated. TCPSocket is NOT supported as a LifecycleHandler and kept for backward compatibility.'),
    sleep: c('SleepAction', 'Sleep represents a duration that the container should sleep.'),
  }),
  SleepAction: struct({ seconds: required(int('Seconds is the number of seconds to sleep.')) }),

  SecurityContext: struct(
    {
      capabilities: c('Capabilities', 'The capabilities to add/drop when running containers.'),
      privileged: bool('Run container in privileged mode. Defaults to false.'),
      seLinuxOptions: c('SELinuxOptions', 'The SELinux context to be applied to the container.'),
      windowsOptions: c('WindowsSecurityContextOptions', 'The Windows specific settings applied to all containers.'),
      runAsUser: int('The UID to run the entrypoint of the container process.'),
      runAsGroup: int('The GID to run the entrypoint of the container process.'),
      runAsNonRoot: bool('Indicates that the container must run as a non-root user.'),
      readOnlyRootFilesystem: bool('Whether this container has a read-only root filesystem. Default is false.'),
      allowPrivilegeEscalation: bool('AllowPrivilegeEscalation controls whether a process can gain more privileges than its parent process.'),
      procMount: enumOf(['Default', 'Unmasked'], 'procMount denotes the type of proc mount to use for the containers.'),
      seccompProfile: c('SeccompProfile', 'The seccomp options to use by this container.'),
      appArmorProfile: c('AppArmorProfile', 'appArmorProfile is the AppArmor options to use by this container.'),
    },
    'SecurityContext holds security configuration that will be applied to a container.',
  ),
  PodSecurityContext: struct(
    {
      seLinuxOptions: c('SELinuxOptions', 'The SELinux context to be applied to all containers.'),
      windowsOptions: c('WindowsSecurityContextOptions', 'The Windows specific settings applied to all containers.'),
      runAsUser: int('The UID to run the entrypoint of the container process.'),
      runAsGroup: int('The GID to run the entrypoint of the container process.'),
      runAsNonRoot: bool('Indicates that the container must run as a non-root user.'),
      supplementalGroups: listOf(int(), 'A list of groups applied to the first process run in each container, in addition to the container\'s primary GID and fsGroup.'),
      supplementalGroupsPolicy: enumOf(['Merge', 'Strict'], 'Defines how supplemental groups of the first container processes are calculated.'),
      fsGroup: int('A special supplemental group that applies to all containers in a pod.'),
      sysctls: listOf(c('Sysctl'), 'Sysctls hold a list of namespaced sysctls used for the pod.'),
      fsGroupChangePolicy: enumOf(['OnRootMismatch', 'Always'], 'fsGroupChangePolicy defines behavior of changing ownership and permission of the volume before being exposed inside Pod.'),
      seccompProfile: c('SeccompProfile', 'The seccomp options to use by the containers in this pod.'),
      appArmorProfile: c('AppArmorProfile', 'appArmorProfile is the AppArmor options to use by the containers in this pod.'),
      seLinuxChangePolicy: enumOf(['MountOption', 'Recursive'], 'seLinuxChangePolicy defines how the container\'s SELinux label is applied to all volumes used by the Pod.'),
    },
    'PodSecurityContext holds pod-level security attributes and common container settings.',
  ),
  Capabilities: struct({ add: strings('Added capabilities'), drop: strings('Removed capabilities') }),
  SELinuxOptions: struct({
    user: str('User is a SELinux user label that applies to the container.'),
    role: str('Role is a SELinux role label that applies to the container.'),
    type: str('Type is a SELinux type label that applies to the container.'),
    level: str('Level is SELinux level label that applies to the container.'),
  }),
  WindowsSecurityContextOptions: struct({
    gmsaCredentialSpecName: str('GMSACredentialSpecName is the name of the GMSA credential spec to use.'),
    gmsaCredentialSpec: str('GMSACredentialSpec is where the GMSA admission webhook inlines the contents of the GMSA credential spec.'),
    runAsUserName: str('The UserName in Windows to run the entrypoint of the container process.'),
    hostProcess: bool('HostProcess determines if a container should be run as a \'Host Process\' container.'),
  }),
  SeccompProfile: struct({
    type: required(enumOf(['Unconfined', 'RuntimeDefault', 'Localhost'], 'type indicates which kind of seccomp profile will be applied.')),
    localhostProfile: str('localhostProfile indicates a profile defined in a file on the node should be used.'),
  }),
  AppArmorProfile: struct({
    type: required(enumOf(['Unconfined', 'RuntimeDefault', 'Localhost'], 'type indicates which kind of AppArmor profile will be applied.')),
    localhostProfile: str('localhostProfile indicates a profile loaded on the node that should be used.'),
  }),
  Sysctl: struct({ name: required(str('Name of a property to set')), value: required(str('Value of a property to set')) }),

  Affinity: struct({
    nodeAffinity: c('NodeAffinity', 'Describes node affinity scheduling rules for the pod.'),
    podAffinity: c('PodAffinity', 'Describes pod affinity scheduling rules (e.g. co-locate this pod in the same node, zone, etc. as some other pod(s)).'),
    podAntiAffinity: c('PodAntiAffinity', 'Describes pod anti-affinity scheduling rules (e.g. avoid putting this pod in the same node, zone, etc. as some other pod(s)).'),
  }),
  NodeAffinity: struct({
    requiredDuringSchedulingIgnoredDuringExecution: c('NodeSelector', 'If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.'),
    preferredDuringSchedulingIgnoredDuringExecution: listOf(c('PreferredSchedulingTerm'), 'The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field.'),
  }),
  NodeSelector: struct({
    nodeSelectorTerms: required(listOf(c('NodeSelectorTerm'), 'Required. A list of node selector terms. The terms are ORed.')),
  }),
  NodeSelectorTerm: struct({
    matchExpressions: listOf(c('NodeSelectorRequirement'), "A list of node selector requirements by node's labels."),
    matchFields: listOf(c('NodeSelectorRequirement'), "A list of node selector requirements by node's fields."),
  }),
  NodeSelectorRequirement: struct({
    key: required(str('The label key that the selector applies to.')),
    operator: required(enumOf(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'], "Represents a key's relationship to a set of values.")),
    values: strings('An array of string values.'),
  }),
  PreferredSchedulingTerm: struct({
    weight: required(int('Weight associated with matching the corresponding nodeSelectorTerm, in the range 1-100.')),
    preference: required(c('NodeSelectorTerm', 'A node selector term, associated with the corresponding weight.')),
  }),
  PodAffinity: struct({
    requiredDuringSchedulingIgnoredDuringExecution: listOf(c('PodAffinityTerm'), 'If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.'),
    preferredDuringSchedulingIgnoredDuringExecution: listOf(c('WeightedPodAffinityTerm'), 'The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field.'),
  }),
  PodAntiAffinity: struct({
    requiredDuringSchedulingIgnoredDuringExecution: listOf(c('PodAffinityTerm'), 'If the anti-affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.'),
    preferredDuringSchedulingIgnoredDuringExecution: listOf(c('WeightedPodAffinityTerm'), 'The scheduler will prefer to schedule pods to nodes that satisfy the anti-affinity expressions specified by this field.'),
  }),
  PodAffinityTerm: struct({
    labelSelector: m('LabelSelector', 'A label query over a set of resources, in this case pods.'),
    namespaces: strings('namespaces specifies a static list of namespace names that the term applies to.'),
    topologyKey: required(str('This pod should be co-located (affinity) or not co-located (anti-affinity) with the pods matching the labelSelector in the specified namespaces.')),
    namespaceSelector: m('LabelSelector', 'A label query over the set of namespaces that the term applies to.'),
    matchLabelKeys: strings('MatchLabelKeys is a set of pod label keys to select which pods will be taken into consideration.'),
    mismatchLabelKeys: strings('MismatchLabelKeys is a set of pod label keys to select which pods will be taken into consideration.'),
  }),
  WeightedPodAffinityTerm: struct({
    weight: required(int('weight associated with matching the corresponding podAffinityTerm, in the range 1-100.')),
    podAffinityTerm: required(c('PodAffinityTerm', 'Required. A pod affinity term, associated with the corresponding weight.')),
  }),
  Toleration: struct(
    {
      key: str('Key is the taint key that the toleration applies to. Empty means match all taint keys.'),
      operator: enumOf(['Exists', 'Equal'], "Operator represents a key's relationship to the value. Valid operators are Exists and Equal. Defaults to Equal."),
      value: str('Value is the taint value the toleration matches to.'),
      effect: enumOf(['NoSchedule', 'PreferNoSchedule', 'NoExecute'], 'Effect indicates the taint effect to match. Empty means match all taint effects.'),
      tolerationSeconds: int('TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute) tolerates the taint.'),
    },
    'The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect>.',
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
  PodDNSConfigOption: struct({ name: str('Name is this DNS resolver option\'s name. Required.'), value: str('Value is this DNS resolver option\'s value.') }),
  PodReadinessGate: struct({ conditionType: required(str("ConditionType refers to a condition in the pod's condition list with matching type.")) }),
  TopologySpreadConstraint: struct({
    maxSkew: required(int('MaxSkew describes the degree to which pods may be unevenly distributed.')),
    topologyKey: required(str('TopologyKey is the key of node labels.')),
    whenUnsatisfiable: required(enumOf(['DoNotSchedule', 'ScheduleAnyway'], "WhenUnsatisfiable indicates how to deal with a pod if it doesn't satisfy the spread constraint.")),
    labelSelector: m('LabelSelector', 'LabelSelector is used to find matching pods.'),
    minDomains: int('MinDomains indicates a minimum number of eligible domains.'),
    nodeAffinityPolicy: enumOf(['Honor', 'Ignore'], 'NodeAffinityPolicy indicates how we will treat Pod\'s nodeAffinity/nodeSelector when calculating pod topology spread skew.'),
    nodeTaintsPolicy: enumOf(['Honor', 'Ignore'], 'NodeTaintsPolicy indicates how we will treat node taints when calculating pod topology spread skew.'),
    matchLabelKeys: strings('MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated.'),
  }),
  PodOS: struct({ name: required(str('Name is the name of the operating system. The currently supported values are linux and windows.')) }),
  PodSchedulingGate: struct({ name: required(str('Name of the scheduling gate. Each scheduling gate must have a unique name field.')) }),
  PodResourceClaim: struct({
    name: required(str('Name uniquely identifies this resource claim inside the pod.')),
    resourceClaimName: str('ResourceClaimName is the name of a ResourceClaim object in the same namespace as this pod.'),
    resourceClaimTemplateName: str('ResourceClaimTemplateName is the name of a ResourceClaimTemplate object in the same namespace as this pod.'),
  }),

  // ---- volumes ----
  Volume: struct(
    {
      name: required(str("name of the volume. Must be a DNS_LABEL and unique within the pod.")),
      hostPath: c('HostPathVolumeSource', 'hostPath represents a pre-existing file or directory on the host machine that is directly exposed to the container.'),
      emptyDir: c('EmptyDirVolumeSource', "emptyDir represents a temporary directory that shares a pod's lifetime."),
      gcePersistentDisk: c('GCEPersistentDiskVolumeSource', 'Deprecated: GCEPersistentDisk is deprecated.'),
      awsElasticBlockStore: c('AWSElasticBlockStoreVolumeSource', 'Deprecated: AWSElasticBlockStore is deprecated.'),
      gitRepo: c('GitRepoVolumeSource', 'Deprecated: GitRepo is deprecated.'),
      secret: c('SecretVolumeSource', 'secret represents a secret that should populate this volume.'),
      nfs: c('NFSVolumeSource', "nfs represents an NFS mount on the host that shares a pod's lifetime"),
      iscsi: c('ISCSIVolumeSource', "iscsi represents an ISCSI Disk resource that is attached to a kubelet's host machine and then exposed to the pod."),
      glusterfs: c('GlusterfsVolumeSource', 'Deprecated: Glusterfs is deprecated and the in-tree glusterfs type is no longer supported.'),
      persistentVolumeClaim: c('PersistentVolumeClaimVolumeSource', 'persistentVolumeClaimVolumeSource represents a reference to a PersistentVolumeClaim in the same namespace.'),
      rbd: c('RBDVolumeSource', 'Deprecated: RBD is deprecated and the in-tree rbd type is no longer supported.'),
      flexVolume: c('FlexVolumeSource', 'Deprecated: FlexVolume is deprecated.'),
      cinder: c('CinderVolumeSource', 'Deprecated: Cinder is deprecated.'),
      cephfs: c('CephFSVolumeSource', 'Deprecated: CephFS is deprecated and the in-tree cephfs type is no longer supported.'),
      flocker: c('FlockerVolumeSource', 'Deprecated: Flocker is deprecated and the in-tree flocker type is no longer supported.'),
      downwardAPI: c('DownwardAPIVolumeSource', 'downwardAPI represents downward API about the pod that should populate this volume'),
      fc: c('FCVolumeSource', "fc represents a Fibre Channel resource that is attached to a kubelet's host machine and then exposed to the pod."),
      azureFile: c('AzureFileVolumeSource', 'Deprecated: AzureFile is deprecated.'),
      configMap: c('ConfigMapVolumeSource', 'configMap represents a configMap that should populate this volume'),
      vsphereVolume: c('VsphereVirtualDiskVolumeSource', 'Deprecated: VsphereVolume is deprecated.'),
      quobyte: c('QuobyteVolumeSource', 'Deprecated: Quobyte is deprecated and the in-tree quobyte type is no longer supported.'),
      azureDisk: c('AzureDiskVolumeSource', 'Deprecated: AzureDisk is deprecated.'),
      photonPersistentDisk: c('PhotonPersistentDiskVolumeSource', 'Deprecated: PhotonPersistentDisk is deprecated and the in-tree photonPersistentDisk type is no longer supported.'),
      projected: c('ProjectedVolumeSource', 'projected items for all in one resources secrets, configmaps, and downward API'),
      portworxVolume: c('PortworxVolumeSource', 'Deprecated: PortworxVolume is deprecated.'),
      scaleIO: c('ScaleIOVolumeSource', 'Deprecated: ScaleIO is deprecated and the in-tree scaleIO type is no longer supported.'),
      storageos: c('StorageOSVolumeSource', 'Deprecated: StorageOS is deprecated and the in-tree storageos type is no longer supported.'),
      csi: c('CSIVolumeSource', 'csi (Container Storage Interface) represents ephemeral storage that is handled by certain external CSI drivers.'),
      ephemeral: c('EphemeralVolumeSource', 'ephemeral represents a volume that is handled by a cluster storage driver.'),
      image: c('ImageVolumeSource', 'image represents an OCI object (a container image or artifact) pulled and mounted on the kubelet\'s host machine.'),
    },
    {
      description: 'Volume represents a named volume in a pod that may be accessed by any container in the pod.',
      // VolumeSource is a one-of inlined into Volume: patches carry $retainKeys so switching source type drops the old one
      retainKeys: true,
    },
  ),
  HostPathVolumeSource: struct({
    path: required(str('path of the directory on the host. If the path is a symlink, it will follow the link to the real path.')),
    type: enumOf(['', 'DirectoryOrCreate', 'Directory', 'FileOrCreate', 'File', 'Socket', 'CharDevice', 'BlockDevice'], 'type for HostPath Volume. Defaults to ""'),
  }),
  EmptyDirVolumeSource: struct({
    medium: str('medium represents what type of storage medium should back this directory. The default is "" which means to use the node\'s default medium.'),
    sizeLimit: quantity('sizeLimit is the total amount of local storage required for this EmptyDir volume.'),
  }),
  GCEPersistentDiskVolumeSource: struct({
    pdName: required(str('pdName is unique name of the PD resource in GCE.')),
    fsType: str('fsType is filesystem type of the volume that you want to mount.'),
    partition: int('partition is the partition in the volume that you want to mount.'),
    readOnly: bool('readOnly here will force the ReadOnly setting in VolumeMounts.'),
  }),
  AWSElasticBlockStoreVolumeSource: struct({
    volumeID: required(str('volumeID is unique ID of the persistent disk resource in AWS (Amazon EBS volume).')),
    fsType: str('fsType is the filesystem type of the volume that you want to mount.'),
    partition: int('partition is the partition in the volume that you want to mount.'),
    readOnly: bool('readOnly value true will force the readOnly setting in VolumeMounts.'),
  }),
  GitRepoVolumeSource: struct({
    repository: required(str('repository is the URL')),
    revision: str('revision is the commit hash for the specified revision.'),
    directory: str('directory is the target directory name.'),
  }),
  SecretVolumeSource: struct({
    secretName: str("secretName is the name of the secret in the pod's namespace to use."),
    items: listOf(c('KeyToPath'), 'items If unspecified, each key-value pair in the Data field of the referenced Secret will be projected into the volume as a file whose name is the key and content is the value.'),
    defaultMode: int('defaultMode is Optional: mode bits used to set permissions on created files by default. Defaults to 0644.'),
    optional: bool('optional field specify whether the Secret or its keys must be defined'),
  }),
  KeyToPath: struct({
    key: required(str('key is the key to project.')),
    path: required(str('path is the relative path of the file to map the key to.')),
    mode: int('mode is Optional: mode bits used to set permissions on this file.'),
  }),
  NFSVolumeSource: struct({
    server: required(str('server is the hostname or IP address of the NFS server.')),
    path: required(str('path that is exported by the NFS server.')),
    readOnly: bool('readOnly here will force the NFS export to be mounted with read-only permissions. Defaults to false.'),
  }),
  ISCSIVolumeSource: struct({
    targetPortal: required(str('targetPortal is iSCSI Target Portal.')),
    iqn: required(str('iqn is the target iSCSI Qualified Name.')),
    lun: required(int('lun represents iSCSI Target Lun number.')),
    iscsiInterface: str("iscsiInterface is the interface Name that uses an iSCSI transport. Defaults to 'default' (tcp)."),
    fsType: str('fsType is the filesystem type of the volume that you want to mount.'),
    readOnly: bool('readOnly here will force the ReadOnly setting in VolumeMounts. Defaults to false.'),
    portals: strings('portals is the iSCSI Target Portal List.'),
    chapAuthDiscovery: bool('chapAuthDiscovery defines whether support iSCSI Discovery CHAP authentication'),
    chapAuthSession: bool('chapAuthSession defines whether support iSCSI Session CHAP authentication'),
    secretRef: localRef('secretRef is the CHAP Secret for iSCSI target and initiator authentication'),
    initiatorName: str('initiatorName is the custom iSCSI Initiator Name.'),
  }),
  GlusterfsVolumeSource: struct({
    endpoints: required(str('endpoints is the endpoint name that details Glusterfs topology.')),
    path: required(str('path is the Glusterfs volume path.')),
    readOnly: bool('readOnly here will force the Glusterfs volume to be mounted with read-only permissions. Defaults to false.'),
  }),
  PersistentVolumeClaimVolumeSource: struct({
    claimName: required(str('claimName is the name of a PersistentVolumeClaim in the same namespace as the pod using this volume.')),
    readOnly: bool('readOnly Will force the ReadOnly setting in VolumeMounts. Default false.'),
  }),
  RBDVolumeSource: struct({
    monitors: required(strings('monitors is a collection of Ceph monitors.')),
    image: required(str('image is the rados image name.')),
    fsType: str('fsType is the filesystem type of the volume that you want to mount.'),
    pool: str('pool is the rados pool name. Default is rbd.'),
    user: str('user is the rados user name. Default is admin.'),
    keyring: str('keyring is the path to key ring for RBDUser. Default is /etc/ceph/keyring.'),
    secretRef: localRef('secretRef is name of the authentication secret for RBDUser.'),
    readOnly: bool('readOnly here will force the ReadOnly setting in VolumeMounts. Defaults to false.'),
  }),
  FlexVolumeSource: struct({
    driver: required(str('driver is the name of the driver to use for this volume.')),
    fsType: str('fsType is the filesystem type to mount.'),
    secretRef: localRef('secretRef is Optional: secretRef is reference to the secret object containing sensitive information to pass to the plugin scripts.'),
    readOnly: bool('readOnly is Optional: defaults to false (read/write).'),
    options: labels('options is Optional: this field holds extra command options if any.'),
  }),
  CinderVolumeSource: struct({
    volumeID: required(str('volumeID used to identify the volume in cinder.')),
    fsType: str('fsType is the filesystem type to mount.'),
    readOnly: bool('readOnly defaults to false (read/write).'),
    secretRef: localRef('secretRef is optional: points to a secret object containing parameters used to connect to OpenStack.'),
  }),
  CephFSVolumeSource: struct({
    monitors: required(strings('monitors is Required: Monitors is a collection of Ceph monitors')),
    path: str('path is Optional: Used as the mounted root, rather than the full Ceph tree, default is /'),
    user: str('user is optional: User is the rados user name, default is admin'),
    secretFile: str('secretFile is Optional: SecretFile is the path to key ring for User, default is /etc/ceph/user.secret'),
    secretRef: localRef('secretRef is Optional: SecretRef is reference to the authentication secret for User, default is empty.'),
    readOnly: bool('readOnly is Optional: Defaults to false (read/write).'),
  }),
  FlockerVolumeSource: struct({
    datasetName: str('datasetName is Name of the dataset stored as metadata -> name on the dataset for Flocker'),
    datasetUUID: str('datasetUUID is the UUID of the dataset. This is unique identifier of a Flocker dataset'),
  }),
  DownwardAPIVolumeSource: struct({
    items: listOf(c('DownwardAPIVolumeFile'), 'Items is a list of downward API volume file'),
    defaultMode: int('Optional: mode bits to use on created files by default. Defaults to 0644.'),
  }),
  DownwardAPIVolumeFile: struct({
    path: required(str("Required: Path is  the relative path name of the file to be created. Must not be absolute or contain the '..' path.")),
    fieldRef: c('ObjectFieldSelector', 'Required: Selects a field of the pod: only annotations, labels, name, namespace and uid are supported.'),
    resourceFieldRef: c('ResourceFieldSelector', 'Selects a resource of the container: only resources limits and requests are currently supported.'),
    mode: int('Optional: mode bits used to set permissions on this file.'),
  }),
  FCVolumeSource: struct({
    targetWWNs: strings('targetWWNs is Optional: FC target worldwide names (WWNs)'),
    lun: int('lun is Optional: FC target lun number'),
    fsType: str('fsType is the filesystem type to mount.'),
    readOnly: bool('readOnly is Optional: Defaults to false (read/write).'),
    wwids: strings('wwids Optional: FC volume world wide identifiers (wwids)'),
  }),
  AzureFileVolumeSource: struct({
    secretName: required(str('secretName is the  name of secret that contains Azure Storage Account Name and Key')),
    shareName: required(str('shareName is the azure share Name')),
    readOnly: bool('readOnly defaults to false (read/write).'),
  }),
  ConfigMapVolumeSource: struct({
    name: str('Name of the referent.'),
    items: listOf(c('KeyToPath'), 'items if unspecified, each key-value pair in the Data field of the referenced ConfigMap will be projected into the volume as a file whose name is the key and content is the value.'),
    defaultMode: int('defaultMode is optional: mode bits used to set permissions on created files by default. Defaults to 0644.'),
    optional: bool('optional specify whether the ConfigMap or its keys must be defined'),
  }),
  VsphereVirtualDiskVolumeSource: struct({
    volumePath: required(str('volumePath is the path that identifies vSphere volume vmdk')),
    fsType: str('fsType is filesystem type to mount.'),
    storagePolicyName: str('storagePolicyName is the storage Policy Based Management (SPBM) profile name.'),
    storagePolicyID: str('storagePolicyID is the storage Policy Based Management (SPBM) profile ID associated with the StoragePolicyName.'),
  }),
  QuobyteVolumeSource: struct({
    registry: required(str('registry represents a single or multiple Quobyte Registry services specified as a string as host:port pair.')),
    volume: required(str('volume is a string that references an already created Quobyte volume by name.')),
    readOnly: bool('readOnly here will force the Quobyte volume to be mounted with read-only permissions. Defaults to false.'),
    user: str('user to map volume access to Defaults to serivceaccount user'),
    group: str('group to map volume access to Default is no group'),
    tenant: str('tenant owning the given Quobyte volume in the Backend'),
  }),
  AzureDiskVolumeSource: struct({
    diskName: required(str('diskName is the Name of the data disk in the blob storage')),
    diskURI: required(str('diskURI is the URI of data disk in the blob storage')),
    cachingMode: str('cachingMode is the Host Caching mode: None, Read Only, Read Write.'),
    fsType: str('fsType is Filesystem type to mount.'),
    readOnly: bool('readOnly Defaults to false (read/write).'),
    kind: str('kind expected values are Shared, Dedicated, Managed. defaults to shared'),
  }),
  PhotonPersistentDiskVolumeSource: struct({
    pdID: required(str('pdID is the ID that identifies Photon Controller persistent disk')),
    fsType: str('fsType is the filesystem type to mount.'),
  }),
  ProjectedVolumeSource: struct({
    sources: listOf(c('VolumeProjection'), 'sources is the list of volume projections. Each entry in this list handles one source.'),
    defaultMode: int('defaultMode are the mode bits used to set permissions on created files by default.'),
  }),
  VolumeProjection: struct({
    secret: c('SecretProjection', 'secret information about the secret data to project'),
    downwardAPI: c('DownwardAPIProjection', 'downwardAPI information about the downwardAPI data to project'),
    configMap: c('ConfigMapProjection', 'configMap information about the configMap data to project'),
    serviceAccountToken: c('ServiceAccountTokenProjection', 'serviceAccountToken is information about the serviceAccountToken data to project'),
    clusterTrustBundle: c('ClusterTrustBundleProjection', 'ClusterTrustBundle allows a pod to access the `.spec.trustBundle` field of ClusterTrustBundle objects in an auto-updating file.'),
  }),
  SecretProjection: struct({
    name: str('Name of the referent.'),
    items: listOf(c('KeyToPath'), 'items if unspecified, each key-value pair in the Data field of the referenced Secret will be projected into the volume.'),
    optional: bool('optional field specify whether the Secret or its key must be defined'),
  }),
  ConfigMapProjection: struct({
    name: str('Name of the referent.'),
    items: listOf(c('KeyToPath'), 'items if unspecified, each key-value pair in the Data field of the referenced ConfigMap will be projected into the volume.'),
    optional: bool('optional specify whether the ConfigMap or its keys must be defined'),
  }),
  DownwardAPIProjection: struct({
    items: listOf(c('DownwardAPIVolumeFile'), 'Items is a list of DownwardAPIVolume file'),
  }),
  ServiceAccountTokenProjection: struct({
    audience: str('audience is the intended audience of the token.'),
    expirationSeconds: int('expirationSeconds is the requested duration of validity of the service account token. Defaults to 1 hour.'),
    path: required(str('path is the path relative to the mount point of the file to project the token into.')),
  }),
  ClusterTrustBundleProjection: struct({
    name: str('Select a single ClusterTrustBundle by object name.'),
    signerName: str('Select all ClusterTrustBundles that match this signer name.'),
    labelSelector: m('LabelSelector', 'Select all ClusterTrustBundles that match this label selector.'),
    optional: bool("If true, don't block pod startup if the referenced ClusterTrustBundle(s) aren't available."),
    path: required(str('Relative path from the volume root to write the bundle.')),
  }),
  PortworxVolumeSource: struct({
    volumeID: required(str('volumeID uniquely identifies a Portworx volume')),
    fsType: str('fSType represents the filesystem type to mount.'),
    readOnly: bool('readOnly defaults to false (read/write).'),
  }),
  ScaleIOVolumeSource: struct({
    gateway: required(str('gateway is the host address of the ScaleIO API Gateway.')),
    system: required(str('system is the name of the storage system as configured in ScaleIO.')),
    secretRef: required(localRef('secretRef references to the secret for ScaleIO user and other sensitive information.')),
    sslEnabled: bool('sslEnabled Flag enable/disable SSL communication with Gateway, default false'),
    protectionDomain: str('protectionDomain is the name of the ScaleIO Protection Domain for the configured storage.'),
    storagePool: str('storagePool is the ScaleIO Storage Pool associated with the protection domain.'),
    storageMode: str('storageMode indicates whether the storage for a volume should be ThickProvisioned or ThinProvisioned.'),
    volumeName: str('volumeName is the name of a volume already created in the ScaleIO system that is associated with this volume source.'),
    fsType: str('fsType is the filesystem type to mount.'),
    readOnly: bool('readOnly Defaults to false (read/write).'),
  }),
  StorageOSVolumeSource: struct({
    volumeName: str('volumeName is the human-readable name of the StorageOS volume.'),
    volumeNamespace: str('volumeNamespace specifies the scope of the volume within StorageOS.'),
    fsType: str('fsType is the filesystem type to mount.'),
    readOnly: bool('readOnly defaults to false (read/write).'),
    secretRef: localRef('secretRef specifies the secret to use for obtaining the StorageOS API credentials.'),
  }),
  CSIVolumeSource: struct({
    driver: required(str('driver is the name of the CSI driver that handles this volume.')),
    readOnly: bool('readOnly specifies a read-only configuration for the volume. Defaults to false (read/write).'),
    fsType: str('fsType to mount. Ex. "ext4", "xfs", "ntfs".'),
    volumeAttributes: labels('volumeAttributes stores driver-specific properties that are passed to the CSI driver.'),
    nodePublishSecretRef: localRef('nodePublishSecretRef is a reference to the secret object containing sensitive information to pass to the CSI driver.'),
  }),
  EphemeralVolumeSource: struct({
    volumeClaimTemplate: c('PersistentVolumeClaimTemplate', 'Will be used to create a stand-alone PVC to provision the volume.'),
  }),
  PersistentVolumeClaimTemplate: struct({
    metadata: m('ObjectMeta', 'May contain labels and annotations that will be copied into the PVC when creating it.'),
    spec: required(c('PersistentVolumeClaimSpec', 'The specification for the PersistentVolumeClaim.')),
  }),
  ImageVolumeSource: struct({
    reference: str('Required: Image or artifact reference to be used.'),
    pullPolicy: enumOf(['Always', 'Never', 'IfNotPresent'], 'Policy for pulling OCI objects.'),
  }),

  // ---- PersistentVolumeClaim ----
  PersistentVolumeClaimSpec: struct({
    accessModes: strings('accessModes contains the desired access modes the volume should have.'),
    selector: m('LabelSelector', 'selector is a label query over volumes to consider for binding.'),
    resources: c('VolumeResourceRequirements', 'resources represents the minimum resources the volume should have.'),
    volumeName: str('volumeName is the binding reference to the PersistentVolume backing this claim.'),
    storageClassName: str('storageClassName is the name of the StorageClass required by the claim.'),
    volumeMode: enumOf(['Block', 'Filesystem'], 'volumeMode defines what type of volume is required by the claim.'),
    dataSource: c('TypedLocalObjectReference', 'dataSource field can be used to specify an existing VolumeSnapshot object or an existing PVC.'),
    dataSourceRef: c('TypedObjectReference', 'dataSourceRef specifies the object from which to populate the volume with data, if a non-empty volume is desired.'),
    volumeAttributesClassName: str('volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim.'),
  }),
  VolumeResourceRequirements: struct({
    limits: quantities('Limits describes the maximum amount of compute resources allowed.'),
    requests: quantities('Requests describes the minimum amount of compute resources required.'),
  }),
  PersistentVolumeClaimStatus: struct({
    phase: enumOf(['Pending', 'Bound', 'Lost'], 'phase represents the current phase of PersistentVolumeClaim.'),
    accessModes: strings('accessModes contains the actual access modes the volume backing the PVC has.'),
    capacity: quantities('capacity represents the actual resources of the underlying volume.'),
    conditions: listOf(c('PersistentVolumeClaimCondition'), { mergeKey: 'type', description: 'conditions is the current Condition of persistent volume claim.' }),
    allocatedResources: quantities('allocatedResources tracks the resources allocated to a PVC including its capacity.'),
    allocatedResourceStatuses: labels('allocatedResourceStatuses stores status of resource being resized for the given PVC.'),
    currentVolumeAttributesClassName: str('currentVolumeAttributesClassName is the current name of the VolumeAttributesClass the PVC is using.'),
    modifyVolumeStatus: c('ModifyVolumeStatus', 'ModifyVolumeStatus represents the status object of ControllerModifyVolume operation.'),
  }),
  PersistentVolumeClaimCondition: struct({
    type: required(str('Type is the type of the condition.')),
    status: required(enumOf(CONDITION_STATUS, 'Status is the status of the condition.')),
    lastProbeTime: time('lastProbeTime is the time we probed the condition.'),
    lastTransitionTime: time('lastTransitionTime is the time the condition transitioned from one status to another.'),
    reason: str('reason is a unique, this should be a short, machine understandable string that gives the reason for condition\'s last transition.'),
    message: str('message is the human-readable message indicating details about last transition.'),
  }),
  ModifyVolumeStatus: struct({
    targetVolumeAttributesClassName: str('targetVolumeAttributesClassName is the name of the VolumeAttributesClass the PVC currently being reconciled'),
    status: required(str('status is the status of the ControllerModifyVolume operation.')),
  }),

  // ---- PodStatus ----
  PodStatus: struct(
    {
      phase: enumOf(['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'], 'The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle.'),
      conditions: listOf(c('PodCondition'), { mergeKey: 'type', description: 'Current service state of pod.' }),
      message: str('A human readable message indicating details about why the pod is in this condition.'),
      reason: str("A brief CamelCase message indicating details about why the pod is in this state. e.g. 'Evicted'"),
      nominatedNodeName: str('nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.'),
      hostIP: str('hostIP holds the IP address of the host to which the pod is assigned.'),
      hostIPs: listOf(c('HostIP'), { mergeKey: 'ip', description: 'hostIPs holds the IP addresses allocated to the host.' }),
      podIP: str('podIP address allocated to the pod. Routable at least within the cluster.'),
      podIPs: listOf(c('PodIP'), { mergeKey: 'ip', description: 'podIPs holds the IP addresses allocated to the pod.' }),
      startTime: time('RFC 3339 date and time at which the object was acknowledged by the Kubelet.'),
      initContainerStatuses: listOf(c('ContainerStatus'), 'Statuses of init containers in this pod.'),
      containerStatuses: listOf(c('ContainerStatus'), 'Statuses of containers in this pod.'),
      qosClass: enumOf(['Guaranteed', 'Burstable', 'BestEffort'], 'The Quality of Service (QOS) classification assigned to the pod based on resource requirements'),
      ephemeralContainerStatuses: listOf(c('ContainerStatus'), 'Statuses for any ephemeral containers that have run in this pod.'),
      resize: str('Status of resources resize desired for pod\'s containers.'),
      resourceClaimStatuses: listOf(c('PodResourceClaimStatus'), {
        mergeKey: 'name',
        strategy: 'merge,retainKeys',
        description: 'Status of resource claims.',
      }),
    },
    'PodStatus represents information about the status of a pod.',
  ),
  PodCondition: struct({
    type: required(str('Type is the type of the condition.')),
    status: required(enumOf(CONDITION_STATUS, 'Status is the status of the condition. Can be True, False, Unknown.')),
    lastProbeTime: time('Last time we probed the condition.'),
    lastTransitionTime: time('Last time the condition transitioned from one status to another.'),
    reason: str("Unique, one-word, CamelCase reason for the condition's last transition."),
    message: str('Human-readable message indicating details about last transition.'),
  }),
  HostIP: struct({ ip: required(str('IP is the IP address assigned to the host')) }),
  PodIP: struct({ ip: required(str('IP is the IP address assigned to the pod')) }),
  ContainerStatus: struct(
    {
      name: required(str('Name is a DNS_LABEL representing the unique name of the container.')),
      state: c('ContainerState', 'State holds details about the container\'s current condition.'),
      lastState: c('ContainerState', "LastTerminationState holds the last termination state of the container to help debug container crashes and restarts."),
      ready: required(bool('Ready specifies whether the container is currently passing its readiness check.')),
      restartCount: required(int('RestartCount holds the number of times the container has been restarted.')),
      image: required(str('Image is the name of container image that the container is running.')),
      imageID: required(str("ImageID is the image ID of the container's image.")),
      containerID: str("ContainerID is the ID of the container in the format '<type>://<container_id>'."),
      started: bool('Started indicates whether the container has finished its postStart lifecycle hook and passed its startup probe.'),
      allocatedResources: quantities('AllocatedResources represents the compute resources allocated for this container by the node.'),
      resources: c('ResourceRequirements', 'Resources represents the compute resource requests and limits that have been successfully enacted on the running container after it has been started or has been successfully resized.'),
      volumeMounts: listOf(c('VolumeMountStatus'), { mergeKey: 'mountPath', description: 'Status of volume mounts.' }),
      user: c('ContainerUser', 'User represents user identity information initially attached to the first process of the container'),
      allocatedResourcesStatus: listOf(c('ResourceStatus'), { mapKeys: ['name'], description: 'AllocatedResourcesStatus represents the status of various resources allocated for this Pod.' }),
    },
    'ContainerStatus contains details for the current status of this container.',
  ),
  ContainerState: struct({
    waiting: c('ContainerStateWaiting', 'Details about a waiting container'),
    running: c('ContainerStateRunning', 'Details about a running container'),
    terminated: c('ContainerStateTerminated', 'Details about a terminated container'),
  }),
  ContainerStateWaiting: struct({
    reason: str('(brief) reason the container is not yet running.'),
    message: str('Message regarding why the container is not yet running.'),
  }),
  ContainerStateRunning: struct({ startedAt: time('Time at which the container was last (re-)started') }),
  ContainerStateTerminated: struct({
    exitCode: required(int('Exit status from the last termination of the container')),
    signal: int('Signal from the last termination of the container'),
    reason: str('(brief) reason from the last termination of the container'),
    message: str('Message regarding the last termination of the container'),
    startedAt: time('Time at which previous execution of the container started'),
    finishedAt: time('Time at which the container last terminated'),
    containerID: str("Container's ID in the format '<type>://<container_id>'"),
  }),
  VolumeMountStatus: struct({
    name: required(str('Name corresponds to the name of the original VolumeMount.')),
    mountPath: required(str('MountPath corresponds to the original VolumeMount.')),
    readOnly: bool('ReadOnly corresponds to the original VolumeMount.'),
    recursiveReadOnly: str('RecursiveReadOnly must be set to Disabled, Enabled, or unspecified (for non-readonly mounts).'),
  }),
  ContainerUser: struct({ linux: c('LinuxContainerUser', 'Linux holds user identity information initially attached to the first process of the containers in Linux.') }),
  LinuxContainerUser: struct({
    uid: required(int('UID is the primary uid initially attached to the first process in the container')),
    gid: required(int('GID is the primary gid initially attached to the first process in the container')),
    supplementalGroups: listOf(int(), 'SupplementalGroups are the supplemental groups initially attached to the first process in the container'),
  }),
  ResourceStatus: struct({
    name: required(str('Name of the resource. Must be unique within the pod and match one of the resources from the pod spec.')),
    resources: listOf(c('ResourceHealth'), { mapKeys: ['resourceID'], description: 'List of unique Resources health.' }),
  }),
  ResourceHealth: struct({
    resourceID: required(str('ResourceID is the unique identifier of the resource.')),
    health: enumOf(['Healthy', 'Unhealthy', 'Unknown'], 'Health of the resource.'),
  }),
  PodResourceClaimStatus: struct({
    name: required(str('Name uniquely identifies this resource claim inside the pod.')),
    resourceClaimName: str('ResourceClaimName is the name of the ResourceClaim that was generated for the Pod in the namespace of the Pod.'),
  }),

  // ---- Node ----
  NodeSpec: struct(
    {
      podCIDR: str('PodCIDR represents the pod IP range assigned to the node.'),
      podCIDRs: listOf(str(), { strategy: 'merge', description: 'podCIDRs represents the IP ranges assigned to the node for usage by Pods on that node.' }),
      providerID: str('ID of the node assigned by the cloud provider in the format: <ProviderName>://<ProviderSpecificNodeID>'),
      unschedulable: bool('Unschedulable controls node schedulability of new pods. By default, node is schedulable.'),
      taints: listOf(c('Taint'), "If specified, the node's taints."),
      configSource: c('NodeConfigSource', 'Deprecated: Previously used to specify the source of the node\'s configuration for the DynamicKubeletConfig feature.'),
      externalID: str('Deprecated. Not all kubelets will set this field. Remove field after 1.13.'),
    },
    'NodeSpec describes the attributes that a node is created with.',
  ),
  Taint: struct({
    key: required(str('Required. The taint key to be applied to a node.')),
    value: str('The taint value corresponding to the taint key.'),
    effect: required(enumOf(['NoSchedule', 'PreferNoSchedule', 'NoExecute'], 'Required. The effect of the taint on pods that do not tolerate the taint.')),
    timeAdded: time('TimeAdded represents the time at which the taint was added.'),
  }),
  NodeConfigSource: struct({ configMap: c('ConfigMapNodeConfigSource', 'ConfigMap is a reference to a Node\'s ConfigMap') }),
  ConfigMapNodeConfigSource: struct({
    namespace: required(str('Namespace is the metadata.namespace of the referenced ConfigMap.')),
    name: required(str('Name is the metadata.name of the referenced ConfigMap.')),
    uid: str('UID is the metadata.UID of the referenced ConfigMap.'),
    resourceVersion: str('ResourceVersion is the metadata.ResourceVersion of the referenced ConfigMap.'),
    kubeletConfigKey: required(str('KubeletConfigKey declares which key of the referenced ConfigMap corresponds to the KubeletConfiguration structure')),
  }),
  NodeStatus: struct(
    {
      capacity: quantities('Capacity represents the total resources of a node.'),
      allocatable: quantities('Allocatable represents the resources of a node that are available for scheduling. Defaults to Capacity.'),
      phase: enumOf(['Pending', 'Running', 'Terminated'], 'NodePhase is the recently observed lifecycle phase of the node.'),
      conditions: listOf(c('NodeCondition'), { mergeKey: 'type', description: 'Conditions is an array of current observed node conditions.' }),
      addresses: listOf(c('NodeAddress'), { mergeKey: 'type', description: 'List of addresses reachable to the node.' }),
      daemonEndpoints: c('NodeDaemonEndpoints', 'Endpoints of daemons running on the Node.'),
      nodeInfo: c('NodeSystemInfo', 'Set of ids/uuids to uniquely identify the node.'),
      images: listOf(c('ContainerImage'), 'List of container images on this node'),
      volumesInUse: strings('List of attachable volumes in use (mounted) by the node.'),
      volumesAttached: listOf(c('AttachedVolume'), 'List of volumes that are attached to the node.'),
      config: c('NodeConfigStatus', 'Status of the config assigned to the node via the dynamic Kubelet config feature.'),
      runtimeHandlers: listOf(c('NodeRuntimeHandler'), 'The available runtime handlers.'),
      features: c('NodeFeatures', 'Features describes the set of features implemented by the CRI implementation.'),
    },
    'NodeStatus is information about the current status of a node.',
  ),
  NodeCondition: struct({
    type: required(str('Type of node condition.')),
    status: required(enumOf(CONDITION_STATUS, 'Status of the condition, one of True, False, Unknown.')),
    lastHeartbeatTime: time('Last time we got an update on a given condition.'),
    lastTransitionTime: time('Last time the condition transit from one status to another.'),
    reason: str("(brief) reason for the condition's last transition."),
    message: str('Human readable message indicating details about last transition.'),
  }),
  NodeAddress: struct({
    type: required(enumOf(['Hostname', 'InternalIP', 'ExternalIP', 'InternalDNS', 'ExternalDNS'], 'Node address type, one of Hostname, ExternalIP or InternalIP.')),
    address: required(str('The node address.')),
  }),
  NodeDaemonEndpoints: struct({ kubeletEndpoint: c('DaemonEndpoint', 'Endpoint on which Kubelet is listening.') }),
  DaemonEndpoint: struct({ Port: required(int('Port number of the given endpoint.')) }),
  NodeSystemInfo: struct({
    machineID: required(str('MachineID reported by the node.')),
    systemUUID: required(str('SystemUUID reported by the node.')),
    bootID: required(str('Boot ID reported by the node.')),
    kernelVersion: required(str("Kernel Version reported by the node from 'uname -r'.")),
    osImage: required(str('OS Image reported by the node from /etc/os-release.')),
    containerRuntimeVersion: required(str('ContainerRuntime Version reported by the node through runtime remote API.')),
    kubeletVersion: required(str('Kubelet Version reported by the node.')),
    kubeProxyVersion: required(str('Deprecated: KubeProxy Version reported by the node.')),
    operatingSystem: required(str('The Operating System reported by the node')),
    architecture: required(str('The Architecture reported by the node')),
  }),
  ContainerImage: struct({
    names: strings('Names by which this image is known.'),
    sizeBytes: int('The size of the image in bytes.'),
  }),
  AttachedVolume: struct({
    name: required(str('Name of the attached volume')),
    devicePath: required(str('DevicePath represents the device path where the volume should be available')),
  }),
  NodeConfigStatus: struct({
    assigned: c('NodeConfigSource', 'Assigned reports the checkpointed config the node will try to use.'),
    active: c('NodeConfigSource', 'Active reports the checkpointed config the node is actively using.'),
    lastKnownGood: c('NodeConfigSource', 'LastKnownGood reports the checkpointed config the node will fall back to when it encounters an error attempting to use the Assigned config.'),
    error: str('Error describes any problems reconciling the Spec.ConfigSource to the Active config.'),
  }),
  NodeRuntimeHandler: struct({
    name: str('Runtime handler name. Empty for the default runtime handler.'),
    features: c('NodeRuntimeHandlerFeatures', 'Supported features.'),
  }),
  NodeRuntimeHandlerFeatures: struct({
    recursiveReadOnlyMounts: bool('RecursiveReadOnlyMounts is set to true if the runtime handler supports RecursiveReadOnlyMounts.'),
    userNamespaces: bool('UserNamespaces is set to true if the runtime handler supports UserNamespaces, including for volumes.'),
  }),
  NodeFeatures: struct({
    supplementalGroupsPolicy: bool('SupplementalGroupsPolicy is set to true if the runtime supports SupplementalGroupsPolicy and ContainerUser.'),
  }),

  // ---- Service ----
  ServiceSpec: struct(
    {
      ports: listOf(c('ServicePort'), {
        mergeKey: 'port',
        mapKeys: ['port', 'protocol'],
        description: 'The list of ports that are exposed by this service.',
      }),
      selector: labels('Route service traffic to pods with label keys and values matching this selector.'),
      clusterIP: str('clusterIP is the IP address of the service and is usually assigned randomly.'),
      clusterIPs: strings('ClusterIPs is a list of IP addresses assigned to this service, and are usually assigned randomly.'),
      type: enumOf(['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'], 'type determines how the Service is exposed. Defaults to ClusterIP.'),
      externalIPs: strings('externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.'),
      sessionAffinity: enumOf(['ClientIP', 'None'], 'Supports "ClientIP" and "None". Used to maintain session affinity. Defaults to None.'),
      loadBalancerIP: str('Only applies to Service Type: LoadBalancer. Deprecated: This field was under-specified and its meaning varies across implementations.'),
      loadBalancerSourceRanges: strings('If specified and supported by the platform, this will restrict traffic through the cloud-provider load-balancer will be restricted to the specified client IPs.'),
      externalName: str('externalName is the external reference that discovery mechanisms will return as an alias for this service (e.g. a DNS CNAME record).'),
      externalTrafficPolicy: enumOf(['Cluster', 'Local'], 'externalTrafficPolicy describes how nodes distribute service traffic they receive on one of the Service\'s "externally-facing" addresses.'),
      healthCheckNodePort: int('healthCheckNodePort specifies the healthcheck nodePort for the service.'),
      publishNotReadyAddresses: bool('publishNotReadyAddresses indicates that any agent which deals with endpoints for this Service should disregard any indications of ready/not-ready.'),
      sessionAffinityConfig: c('SessionAffinityConfig', 'sessionAffinityConfig contains the configurations of session affinity.'),
      ipFamilies: strings('IPFamilies is a list of IP families (e.g. IPv4, IPv6) assigned to this service.'),
      ipFamilyPolicy: enumOf(['SingleStack', 'PreferDualStack', 'RequireDualStack'], 'IPFamilyPolicy represents the dual-stack-ness requested or required by this Service.'),
      allocateLoadBalancerNodePorts: bool('allocateLoadBalancerNodePorts defines if NodePorts will be automatically allocated for services with type LoadBalancer. Default is "true".'),
      loadBalancerClass: str('loadBalancerClass is the class of the load balancer implementation this Service belongs to.'),
      internalTrafficPolicy: enumOf(['Cluster', 'Local'], 'InternalTrafficPolicy describes how nodes distribute service traffic they receive on the ClusterIP.'),
      trafficDistribution: str('TrafficDistribution offers a way to express preferences for how traffic is distributed to Service endpoints.'),
    },
    'ServiceSpec describes the attributes that a user creates on a service.',
  ),
  ServicePort: struct({
    name: str('The name of this port within the service. This must be a DNS_LABEL.'),
    protocol: enumOf(PROTOCOLS, 'The IP protocol for this port. Supports "TCP", "UDP", and "SCTP". Default is TCP.'),
    appProtocol: str('The application protocol for this port.'),
    port: required(int('The port that will be exposed by this service.')),
    targetPort: intOrString('Number or name of the port to access on the pods targeted by the service.'),
    nodePort: int('The port on each node on which this service is exposed when type is NodePort or LoadBalancer.'),
  }),
  SessionAffinityConfig: struct({ clientIP: c('ClientIPConfig', 'clientIP contains the configurations of Client IP based session affinity.') }),
  ClientIPConfig: struct({ timeoutSeconds: int('timeoutSeconds specifies the seconds of ClientIP type session sticky time. Default value is 10800 (for 3 hours).') }),
  ServiceStatus: struct({
    loadBalancer: c('LoadBalancerStatus', 'LoadBalancer contains the current status of the load-balancer, if one is present.'),
    conditions: listOf(m('Condition'), { mergeKey: 'type', description: 'Current service state' }),
  }),
  LoadBalancerStatus: struct({
    ingress: listOf(c('LoadBalancerIngress'), 'Ingress is a list containing ingress points for the load-balancer.'),
  }),
  LoadBalancerIngress: struct({
    ip: str('IP is set for load-balancer ingress points that are IP based (typically GCE or OpenStack load-balancers)'),
    hostname: str('Hostname is set for load-balancer ingress points that are DNS based (typically AWS load-balancers)'),
    ipMode: enumOf(['VIP', 'Proxy'], 'IPMode specifies how the load-balancer IP behaves, and may only be specified when the ip field is specified.'),
    ports: listOf(c('PortStatus'), 'Ports is a list of records of service ports'),
  }),
  PortStatus: struct({
    port: required(int('Port is the port number of the service port of which status is recorded here')),
    protocol: required(enumOf(PROTOCOLS, 'Protocol is the protocol of the service port of which status is recorded here')),
    error: str('Error is to record the problem with the service port'),
  }),
})
