/** The Node kind of core/v1, its spec and status. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, bool, enumOf, group, int, kind, listOf, required, str, struct, time } from '../dsl'
import { CONDITION_STATUS, c, quantities, strings } from './shorthands'

export const coreV1Node: SchemaSet = group(CORE, {
  Node: kind(
    'Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).',
    {
      spec: c('NodeSpec', 'Spec defines the behavior of a node.'),
      status: c('NodeStatus', 'Most recently observed status of the node.'),
    },
  ),
  NodeSpec: struct(
    {
      podCIDR: str('PodCIDR represents the pod IP range assigned to the node.'),
      podCIDRs: listOf(str(), {
        strategy: 'merge',
        description:
          'podCIDRs represents the IP ranges assigned to the node for usage by Pods on that node.',
      }),
      providerID: str(
        'ID of the node assigned by the cloud provider in the format: <ProviderName>://<ProviderSpecificNodeID>',
      ),
      unschedulable: bool(
        'Unschedulable controls node schedulability of new pods. By default, node is schedulable.',
      ),
      taints: listOf(c('Taint'), "If specified, the node's taints."),
      configSource: c(
        'NodeConfigSource',
        "Deprecated: Previously used to specify the source of the node's configuration for the DynamicKubeletConfig feature.",
      ),
      externalID: str('Deprecated. Not all kubelets will set this field. Remove field after 1.13.'),
    },
    'NodeSpec describes the attributes that a node is created with.',
  ),
  Taint: struct({
    key: required(str('Required. The taint key to be applied to a node.')),
    value: str('The taint value corresponding to the taint key.'),
    effect: required(
      enumOf(
        ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
        'Required. The effect of the taint on pods that do not tolerate the taint.',
      ),
    ),
    timeAdded: time('TimeAdded represents the time at which the taint was added.'),
  }),
  NodeConfigSource: struct({
    configMap: c('ConfigMapNodeConfigSource', "ConfigMap is a reference to a Node's ConfigMap"),
  }),
  ConfigMapNodeConfigSource: struct({
    namespace: required(str('Namespace is the metadata.namespace of the referenced ConfigMap.')),
    name: required(str('Name is the metadata.name of the referenced ConfigMap.')),
    uid: str('UID is the metadata.UID of the referenced ConfigMap.'),
    resourceVersion: str(
      'ResourceVersion is the metadata.ResourceVersion of the referenced ConfigMap.',
    ),
    kubeletConfigKey: required(
      str(
        'KubeletConfigKey declares which key of the referenced ConfigMap corresponds to the KubeletConfiguration structure',
      ),
    ),
  }),
  NodeStatus: struct(
    {
      capacity: quantities('Capacity represents the total resources of a node.'),
      allocatable: quantities(
        'Allocatable represents the resources of a node that are available for scheduling. Defaults to Capacity.',
      ),
      phase: enumOf(
        ['Pending', 'Running', 'Terminated'],
        'NodePhase is the recently observed lifecycle phase of the node.',
      ),
      conditions: listOf(c('NodeCondition'), {
        mergeKey: 'type',
        description: 'Conditions is an array of current observed node conditions.',
      }),
      addresses: listOf(c('NodeAddress'), {
        mergeKey: 'type',
        description: 'List of addresses reachable to the node.',
      }),
      daemonEndpoints: c('NodeDaemonEndpoints', 'Endpoints of daemons running on the Node.'),
      nodeInfo: c('NodeSystemInfo', 'Set of ids/uuids to uniquely identify the node.'),
      images: listOf(c('ContainerImage'), 'List of container images on this node'),
      volumesInUse: strings('List of attachable volumes in use (mounted) by the node.'),
      volumesAttached: listOf(
        c('AttachedVolume'),
        'List of volumes that are attached to the node.',
      ),
      config: c(
        'NodeConfigStatus',
        'Status of the config assigned to the node via the dynamic Kubelet config feature.',
      ),
      runtimeHandlers: listOf(c('NodeRuntimeHandler'), 'The available runtime handlers.'),
      features: c(
        'NodeFeatures',
        'Features describes the set of features implemented by the CRI implementation.',
      ),
    },
    'NodeStatus is information about the current status of a node.',
  ),
  NodeCondition: struct({
    type: required(str('Type of node condition.')),
    status: required(
      enumOf(CONDITION_STATUS, 'Status of the condition, one of True, False, Unknown.'),
    ),
    lastHeartbeatTime: time('Last time we got an update on a given condition.'),
    lastTransitionTime: time('Last time the condition transit from one status to another.'),
    reason: str("(brief) reason for the condition's last transition."),
    message: str('Human readable message indicating details about last transition.'),
  }),
  NodeAddress: struct({
    type: required(
      enumOf(
        ['Hostname', 'InternalIP', 'ExternalIP', 'InternalDNS', 'ExternalDNS'],
        'Node address type, one of Hostname, ExternalIP or InternalIP.',
      ),
    ),
    address: required(str('The node address.')),
  }),
  NodeDaemonEndpoints: struct({
    kubeletEndpoint: c('DaemonEndpoint', 'Endpoint on which Kubelet is listening.'),
  }),
  DaemonEndpoint: struct({ Port: required(int('Port number of the given endpoint.')) }),
  NodeSystemInfo: struct({
    machineID: required(str('MachineID reported by the node.')),
    systemUUID: required(str('SystemUUID reported by the node.')),
    bootID: required(str('Boot ID reported by the node.')),
    kernelVersion: required(str("Kernel Version reported by the node from 'uname -r'.")),
    osImage: required(str('OS Image reported by the node from /etc/os-release.')),
    containerRuntimeVersion: required(
      str('ContainerRuntime Version reported by the node through runtime remote API.'),
    ),
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
    devicePath: required(
      str('DevicePath represents the device path where the volume should be available'),
    ),
  }),
  NodeConfigStatus: struct({
    assigned: c(
      'NodeConfigSource',
      'Assigned reports the checkpointed config the node will try to use.',
    ),
    active: c(
      'NodeConfigSource',
      'Active reports the checkpointed config the node is actively using.',
    ),
    lastKnownGood: c(
      'NodeConfigSource',
      'LastKnownGood reports the checkpointed config the node will fall back to when it encounters an error attempting to use the Assigned config.',
    ),
    error: str(
      'Error describes any problems reconciling the Spec.ConfigSource to the Active config.',
    ),
  }),
  NodeRuntimeHandler: struct({
    name: str('Runtime handler name. Empty for the default runtime handler.'),
    features: c('NodeRuntimeHandlerFeatures', 'Supported features.'),
  }),
  NodeRuntimeHandlerFeatures: struct({
    recursiveReadOnlyMounts: bool(
      'RecursiveReadOnlyMounts is set to true if the runtime handler supports RecursiveReadOnlyMounts.',
    ),
    userNamespaces: bool(
      'UserNamespaces is set to true if the runtime handler supports UserNamespaces, including for volumes.',
    ),
  }),
  NodeFeatures: struct({
    supplementalGroupsPolicy: bool(
      'SupplementalGroupsPolicy is set to true if the runtime supports SupplementalGroupsPolicy and ContainerUser.',
    ),
  }),
})
