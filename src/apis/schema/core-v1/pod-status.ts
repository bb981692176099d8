/** The core/v1 PodStatus and the container statuses it reports. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, bool, enumOf, group, int, listOf, required, str, struct, time } from '../dsl'
import { CONDITION_STATUS, c, quantities } from './shorthands'

export const coreV1PodStatus: SchemaSet = group(CORE, {
  PodStatus: struct(
    {
      phase: enumOf(
        ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'],
        'The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle.',
      ),
      conditions: listOf(c('PodCondition'), {
        mergeKey: 'type',
        description: 'Current service state of pod.',
      }),
      message: str(
        'A human readable message indicating details about why the pod is in this condition.',
      ),
      reason: str(
        "A brief CamelCase message indicating details about why the pod is in this state. e.g. 'Evicted'",
      ),
      nominatedNodeName: str(
        'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.',
      ),
      hostIP: str('hostIP holds the IP address of the host to which the pod is assigned.'),
      hostIPs: listOf(c('HostIP'), {
        mergeKey: 'ip',
        description: 'hostIPs holds the IP addresses allocated to the host.',
      }),
      podIP: str('podIP address allocated to the pod. Routable at least within the cluster.'),
      podIPs: listOf(c('PodIP'), {
        mergeKey: 'ip',
        description: 'podIPs holds the IP addresses allocated to the pod.',
      }),
      startTime: time(
        'RFC 3339 date and time at which the object was acknowledged by the Kubelet.',
      ),
      initContainerStatuses: listOf(
        c('ContainerStatus'),
        'Statuses of init containers in this pod.',
      ),
      containerStatuses: listOf(c('ContainerStatus'), 'Statuses of containers in this pod.'),
      qosClass: enumOf(
        ['Guaranteed', 'Burstable', 'BestEffort'],
        'The Quality of Service (QOS) classification assigned to the pod based on resource requirements',
      ),
      ephemeralContainerStatuses: listOf(
        c('ContainerStatus'),
        'Statuses for any ephemeral containers that have run in this pod.',
      ),
      resize: str("Status of resources resize desired for pod's containers."),
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
    status: required(
      enumOf(
        CONDITION_STATUS,
        'Status is the status of the condition. Can be True, False, Unknown.',
      ),
    ),
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
      state: c('ContainerState', "State holds details about the container's current condition."),
      lastState: c(
        'ContainerState',
        'LastTerminationState holds the last termination state of the container to help debug container crashes and restarts.',
      ),
      ready: required(
        bool('Ready specifies whether the container is currently passing its readiness check.'),
      ),
      restartCount: required(
        int('RestartCount holds the number of times the container has been restarted.'),
      ),
      image: required(str('Image is the name of container image that the container is running.')),
      imageID: required(str("ImageID is the image ID of the container's image.")),
      containerID: str(
        "ContainerID is the ID of the container in the format '<type>://<container_id>'.",
      ),
      started: bool(
        'Started indicates whether the container has finished its postStart lifecycle hook and passed its startup probe.',
      ),
      allocatedResources: quantities(
        'AllocatedResources represents the compute resources allocated for this container by the node.',
      ),
      resources: c(
        'ResourceRequirements',
        'Resources represents the compute resource requests and limits that have been successfully enacted on the running container after it has been started or has been successfully resized.',
      ),
      volumeMounts: listOf(c('VolumeMountStatus'), {
        mergeKey: 'mountPath',
        description: 'Status of volume mounts.',
      }),
      user: c(
        'ContainerUser',
        'User represents user identity information initially attached to the first process of the container',
      ),
      allocatedResourcesStatus: listOf(c('ResourceStatus'), {
        mapKeys: ['name'],
        description:
          'AllocatedResourcesStatus represents the status of various resources allocated for this Pod.',
      }),
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
  ContainerStateRunning: struct({
    startedAt: time('Time at which the container was last (re-)started'),
  }),
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
    recursiveReadOnly: str(
      'RecursiveReadOnly must be set to Disabled, Enabled, or unspecified (for non-readonly mounts).',
    ),
  }),
  ContainerUser: struct({
    linux: c(
      'LinuxContainerUser',
      'Linux holds user identity information initially attached to the first process of the containers in Linux.',
    ),
  }),
  LinuxContainerUser: struct({
    uid: required(
      int('UID is the primary uid initially attached to the first process in the container'),
    ),
    gid: required(
      int('GID is the primary gid initially attached to the first process in the container'),
    ),
    supplementalGroups: listOf(
      int(),
      'SupplementalGroups are the supplemental groups initially attached to the first process in the container',
    ),
  }),
  ResourceStatus: struct({
    name: required(
      str(
        'Name of the resource. Must be unique within the pod and match one of the resources from the pod spec.',
      ),
    ),
    resources: listOf(c('ResourceHealth'), {
      mapKeys: ['resourceID'],
      description: 'List of unique Resources health.',
    }),
  }),
  ResourceHealth: struct({
    resourceID: required(str('ResourceID is the unique identifier of the resource.')),
    health: enumOf(['Healthy', 'Unhealthy', 'Unknown'], 'Health of the resource.'),
  }),
  PodResourceClaimStatus: struct({
    name: required(str('Name uniquely identifies this resource claim inside the pod.')),
    resourceClaimName: str(
      'ResourceClaimName is the name of the ResourceClaim that was generated for the Pod in the namespace of the Pod.',
    ),
  }),
})
