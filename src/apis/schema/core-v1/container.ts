/** The core/v1 Container and EphemeralContainer and the structs they embed: ports, env, resources, mounts, probes, lifecycle. */
import type { FieldDef, SchemaSet } from '../../../apimachinery/schema-types'
import {
  CORE,
  bool,
  enumOf,
  group,
  int,
  intOrString,
  listOf,
  quantity,
  required,
  str,
  struct,
} from '../dsl'
import { PROTOCOLS, c, quantities, strings } from './shorthands'

/** Container and EphemeralContainer share every field (EphemeralContainerCommon mirrors Container). */
const containerFields = (): Record<string, FieldDef> => ({
  name: required(
    str(
      'Name of the container specified as a DNS_LABEL. Each container in a pod must have a unique name. Cannot be updated.',
    ),
  ),
  image: str('Container image name.'),
  command: strings(
    "Entrypoint array. Not executed within a shell. The container image's ENTRYPOINT is used if this is not provided.",
  ),
  args: strings(
    "Arguments to the entrypoint. The container image's CMD is used if this is not provided.",
  ),
  workingDir: str(
    "Container's working directory. If not specified, the container runtime's default will be used.",
  ),
  ports: listOf(c('ContainerPort'), {
    mergeKey: 'containerPort',
    mapKeys: ['containerPort', 'protocol'],
    description: 'List of ports to expose from the container.',
  }),
  envFrom: listOf(
    c('EnvFromSource'),
    'List of sources to populate environment variables in the container.',
  ),
  env: listOf(c('EnvVar'), {
    mergeKey: 'name',
    description: 'List of environment variables to set in the container. Cannot be updated.',
  }),
  resources: c('ResourceRequirements', 'Compute Resources required by this container.'),
  resizePolicy: listOf(c('ContainerResizePolicy'), 'Resources resize policy for the container.'),
  restartPolicy: str(
    'RestartPolicy defines the restart behavior of individual containers in a pod. The only allowed value is "Always", for init containers.',
  ),
  volumeMounts: listOf(c('VolumeMount'), {
    mergeKey: 'mountPath',
    description: "Pod volumes to mount into the container's filesystem. Cannot be updated.",
  }),
  volumeDevices: listOf(c('VolumeDevice'), {
    mergeKey: 'devicePath',
    description: 'volumeDevices is the list of block devices to be used by the container.',
  }),
  livenessProbe: c(
    'Probe',
    'Periodic probe of container liveness. Container will be restarted if the probe fails.',
  ),
  readinessProbe: c(
    'Probe',
    'Periodic probe of container service readiness. Container will be removed from service endpoints if the probe fails.',
  ),
  startupProbe: c('Probe', 'StartupProbe indicates that the Pod has successfully initialized.'),
  lifecycle: c(
    'Lifecycle',
    'Actions that the management system should take in response to container lifecycle events.',
  ),
  terminationMessagePath: str(
    "Path at which the file to which the container's termination message will be written is mounted.",
  ),
  terminationMessagePolicy: enumOf(
    ['File', 'FallbackToLogsOnError'],
    'Indicate how the termination message should be populated.',
  ),
  imagePullPolicy: enumOf(
    ['Always', 'Never', 'IfNotPresent'],
    'Image pull policy. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise.',
  ),
  securityContext: c(
    'SecurityContext',
    'SecurityContext defines the security options the container should be run with.',
  ),
  stdin: bool(
    'Whether this container should allocate a buffer for stdin in the container runtime.',
  ),
  stdinOnce: bool(
    'Whether the container runtime should close the stdin channel after it has been opened by a single attach.',
  ),
  tty: bool(
    "Whether this container should allocate a TTY for itself, also requires 'stdin' to be true.",
  ),
})

const keySelector = () => ({
  name: str('Name of the referent.'),
  key: required(str('The key to select.')),
  optional: bool('Specify whether the referent or its key must be defined.'),
})

export const coreV1Container: SchemaSet = group(CORE, {
  Container: struct(
    containerFields(),
    'A single application container that you want to run within a pod.',
  ),
  EphemeralContainer: struct(
    {
      ...containerFields(),
      targetContainerName: str(
        'If set, the name of the container from PodSpec that this ephemeral container targets.',
      ),
    },
    'An EphemeralContainer is a temporary container that you may add to an existing Pod for user-initiated activities such as debugging.',
  ),
  ContainerPort: struct({
    name: str('If specified, this must be an IANA_SVC_NAME and unique within the pod.'),
    hostPort: int('Number of port to expose on the host.'),
    containerPort: required(
      int(
        "Number of port to expose on the pod's IP address. This must be a valid port number, 0 < x < 65536.",
      ),
    ),
    protocol: enumOf(PROTOCOLS, 'Protocol for port. Must be UDP, TCP, or SCTP. Defaults to "TCP".'),
    hostIP: str('What host IP to bind the external port to.'),
  }),
  EnvFromSource: struct({
    prefix: str(
      'An optional identifier to prepend to each key in the ConfigMap. Must be a C_IDENTIFIER.',
    ),
    configMapRef: c('ConfigMapEnvSource', 'The ConfigMap to select from'),
    secretRef: c('SecretEnvSource', 'The Secret to select from'),
  }),
  ConfigMapEnvSource: struct({
    name: str('Name of the referent.'),
    optional: bool('Specify whether the ConfigMap must be defined'),
  }),
  SecretEnvSource: struct({
    name: str('Name of the referent.'),
    optional: bool('Specify whether the Secret must be defined'),
  }),
  EnvVar: struct(
    {
      name: required(str('Name of the environment variable. Must be a C_IDENTIFIER.')),
      value: str(
        'Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables.',
      ),
      valueFrom: c(
        'EnvVarSource',
        "Source for the environment variable's value. Cannot be used if value is not empty.",
      ),
    },
    'EnvVar represents an environment variable present in a Container.',
  ),
  EnvVarSource: struct({
    fieldRef: c('ObjectFieldSelector', 'Selects a field of the pod.'),
    resourceFieldRef: c(
      'ResourceFieldSelector',
      'Selects a resource of the container: only resources limits and requests are currently supported.',
    ),
    configMapKeyRef: c('ConfigMapKeySelector', 'Selects a key of a ConfigMap.'),
    secretKeyRef: c('SecretKeySelector', "Selects a key of a secret in the pod's namespace"),
  }),
  ObjectFieldSelector: struct({
    apiVersion: str(
      'Version of the schema the FieldPath is written in terms of, defaults to "v1".',
    ),
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
        description:
          'Claims lists the names of resources, defined in spec.resourceClaims, that are used by this container.',
      }),
    },
    'ResourceRequirements describes the compute resource requirements.',
  ),
  ResourceClaim: struct({
    name: required(
      str(
        'Name must match the name of one entry in pod.spec.resourceClaims of the Pod where this field is used.',
      ),
    ),
    request: str('Request is the name chosen for a request in the referenced claim.'),
  }),
  ContainerResizePolicy: struct({
    resourceName: required(
      str(
        'Name of the resource to which this resource resize policy applies. Supported values: cpu, memory.',
      ),
    ),
    restartPolicy: required(
      enumOf(
        ['NotRequired', 'RestartContainer'],
        'Restart policy to apply when specified resource is resized.',
      ),
    ),
  }),
  VolumeMount: struct(
    {
      name: required(str('This must match the Name of a Volume.')),
      readOnly: bool(
        'Mounted read-only if true, read-write otherwise (false or unspecified). Defaults to false.',
      ),
      recursiveReadOnly: enumOf(
        ['Disabled', 'IfPossible', 'Enabled'],
        'RecursiveReadOnly specifies whether read-only mounts should be handled recursively.',
      ),
      mountPath: required(
        str(
          "Path within the container at which the volume should be mounted. Must not contain ':'.",
        ),
      ),
      subPath: str(
        'Path within the volume from which the container\'s volume should be mounted. Defaults to "" (volume\'s root).',
      ),
      mountPropagation: enumOf(
        ['None', 'HostToContainer', 'Bidirectional'],
        'mountPropagation determines how mounts are propagated from the host to container and the other way around.',
      ),
      subPathExpr: str(
        "Expanded path within the volume from which the container's volume should be mounted.",
      ),
    },
    'VolumeMount describes a mounting of a Volume within a container.',
  ),
  VolumeDevice: struct({
    name: required(str('name must match the name of a persistentVolumeClaim in the pod')),
    devicePath: required(
      str('devicePath is the path inside of the container that the device will be mapped to.'),
    ),
  }),
  Probe: struct(
    {
      exec: c('ExecAction', 'Exec specifies a command to execute in the container.'),
      httpGet: c('HTTPGetAction', 'HTTPGet specifies an HTTP GET request to perform.'),
      tcpSocket: c('TCPSocketAction', 'TCPSocket specifies a connection to a TCP port.'),
      grpc: c('GRPCAction', 'GRPC specifies a GRPC HealthCheckRequest.'),
      initialDelaySeconds: int(
        'Number of seconds after the container has started before liveness probes are initiated.',
      ),
      timeoutSeconds: int(
        'Number of seconds after which the probe times out. Defaults to 1 second. Minimum value is 1.',
      ),
      periodSeconds: int(
        'How often (in seconds) to perform the probe. Default to 10 seconds. Minimum value is 1.',
      ),
      successThreshold: int(
        'Minimum consecutive successes for the probe to be considered successful after having failed. Defaults to 1.',
      ),
      failureThreshold: int(
        'Minimum consecutive failures for the probe to be considered failed after having succeeded. Defaults to 3.',
      ),
      terminationGracePeriodSeconds: int(
        'Optional duration in seconds the pod needs to terminate gracefully upon probe failure.',
      ),
    },
    'Probe describes a health check to be performed against a container to determine whether it is alive or ready to receive traffic.',
  ),
  ExecAction: struct({
    command: strings(
      "Command is the command line to execute inside the container, the working directory for the command is root ('/') in the container's filesystem.",
    ),
  }),
  HTTPGetAction: struct({
    path: str('Path to access on the HTTP server.'),
    port: required(intOrString('Name or number of the port to access on the container.')),
    host: str('Host name to connect to, defaults to the pod IP.'),
    scheme: enumOf(
      ['HTTP', 'HTTPS'],
      'Scheme to use for connecting to the host. Defaults to HTTP.',
    ),
    httpHeaders: listOf(
      c('HTTPHeader'),
      'Custom headers to set in the request. HTTP allows repeated headers.',
    ),
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
    postStart: c(
      'LifecycleHandler',
      'PostStart is called immediately after a container is created.',
    ),
    preStop: c(
      'LifecycleHandler',
      'PreStop is called immediately before a container is terminated due to an API request or management event.',
    ),
  }),
  LifecycleHandler: struct({
    exec: c('ExecAction', 'Exec specifies a command to execute in the container.'),
    httpGet: c('HTTPGetAction', 'HTTPGet specifies an HTTP GET request to perform.'),
    tcpSocket: c(
      'TCPSocketAction',
      'Deprecated. TCPSocket is NOT supported as a LifecycleHandler and kept for backward compatibility.',
    ),
    sleep: c('SleepAction', 'Sleep represents a duration that the container should sleep.'),
  }),
  SleepAction: struct({ seconds: required(int('Seconds is the number of seconds to sleep.')) }),
})
