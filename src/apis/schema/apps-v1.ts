/**
 * Structural schema of apps/v1 (k8s.io/api/apps/v1) as of Kubernetes v1.32.
 */
import type { FieldDef, SchemaSet } from '../../apimachinery/schema-types'
import {
  APPS,
  CORE,
  META,
  any,
  bool,
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
  time,
} from './dsl'

const a = (name: string, description?: string) => ref(APPS + name, description)
const c = (name: string, description?: string) => ref(CORE + name, description)
const m = (name: string, description?: string) => ref(META + name, description)

const selector = (description: string) => required(m('LabelSelector', description))
const template = (description: string) => required(c('PodTemplateSpec', description))
const minReadySeconds = () =>
  int(
    'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0.',
  )
const revisionHistoryLimit = (defaults: number) =>
  int(
    `The number of old history to retain to allow rollback. This is a pointer to distinguish between explicit zero and not specified. Defaults to ${defaults}.`,
  )
const conditions = (item: string, description: string) =>
  listOf(a(item), { mergeKey: 'type', description })
const collisionCount = () =>
  int(
    'Count of hash collisions for this object. The controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ControllerRevision.',
  )

/** Deployment, ReplicaSet, StatefulSet and DaemonSet conditions share one shape (Deployment adds lastUpdateTime). */
const conditionFields = (): Record<string, FieldDef> => ({
  type: required(str('Type of condition.')),
  status: required(
    enumOf(['True', 'False', 'Unknown'], 'Status of the condition, one of True, False, Unknown.'),
  ),
  lastTransitionTime: time('Last time the condition transitioned from one status to another.'),
  reason: str("The reason for the condition's last transition."),
  message: str('A human readable message indicating details about the transition.'),
})

export const appsV1: SchemaSet = group(APPS, {
  Deployment: kind('Deployment enables declarative updates for Pods and ReplicaSets.', {
    spec: a('DeploymentSpec', 'Specification of the desired behavior of the Deployment.'),
    status: a('DeploymentStatus', 'Most recently observed status of the Deployment.'),
  }),
  DeploymentSpec: struct(
    {
      replicas: int(
        'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
      ),
      selector: selector(
        "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
      ),
      template: template(
        'Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".',
      ),
      strategy: a(
        'DeploymentStrategy',
        'The deployment strategy to use to replace existing pods with new ones.',
      ),
      minReadySeconds: minReadySeconds(),
      revisionHistoryLimit: revisionHistoryLimit(10),
      paused: bool('Indicates that the deployment is paused.'),
      progressDeadlineSeconds: int(
        'The maximum time in seconds for a deployment to make progress before it is considered to be failed. Defaults to 600s.',
      ),
    },
    'DeploymentSpec is the specification of the desired behavior of the Deployment.',
  ),
  DeploymentStrategy: struct(
    {
      type: enumOf(
        ['Recreate', 'RollingUpdate'],
        'Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.',
      ),
      rollingUpdate: a(
        'RollingUpdateDeployment',
        'Rolling update config params. Present only if DeploymentStrategyType = RollingUpdate.',
      ),
    },
    {
      description: 'DeploymentStrategy describes how to replace existing pods with new ones.',
      // patchStrategy:"retainKeys" on DeploymentSpec.strategy: switching type drops rollingUpdate
      retainKeys: true,
    },
  ),
  RollingUpdateDeployment: struct({
    maxUnavailable: intOrString(
      'The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Defaults to 25%.',
    ),
    maxSurge: intOrString(
      'The maximum number of pods that can be scheduled above the desired number of pods. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Defaults to 25%.',
    ),
  }),
  DeploymentStatus: struct(
    {
      observedGeneration: int('The generation observed by the deployment controller.'),
      replicas: int(
        'Total number of non-terminated pods targeted by this deployment (their labels match the selector).',
      ),
      updatedReplicas: int(
        'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
      ),
      readyReplicas: int(
        'readyReplicas is the number of pods targeted by this Deployment with a Ready Condition.',
      ),
      availableReplicas: int(
        'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
      ),
      unavailableReplicas: int('Total number of unavailable pods targeted by this deployment.'),
      conditions: conditions(
        'DeploymentCondition',
        "Represents the latest available observations of a deployment's current state.",
      ),
      collisionCount: collisionCount(),
    },
    'DeploymentStatus is the most recently observed status of the Deployment.',
  ),
  DeploymentCondition: struct({
    ...conditionFields(),
    lastUpdateTime: time('The last time this condition was updated.'),
  }),

  ReplicaSet: kind(
    'ReplicaSet ensures that a specified number of pod replicas are running at any given time.',
    {
      spec: a(
        'ReplicaSetSpec',
        'Spec defines the specification of the desired behavior of the ReplicaSet.',
      ),
      status: a(
        'ReplicaSetStatus',
        'Status is the most recently observed status of the ReplicaSet.',
      ),
    },
  ),
  ReplicaSetSpec: struct({
    replicas: int(
      'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1.',
    ),
    minReadySeconds: minReadySeconds(),
    selector: selector(
      'Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set.',
    ),
    template: c(
      'PodTemplateSpec',
      'Template is the object that describes the pod that will be created if insufficient replicas are detected.',
    ),
  }),
  ReplicaSetStatus: struct({
    replicas: required(
      int('Replicas is the most recently observed number of non-terminating pods.'),
    ),
    fullyLabeledReplicas: int(
      'The number of non-terminating pods that have labels matching the labels of the pod template of the replicaset.',
    ),
    readyReplicas: int(
      'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.',
    ),
    availableReplicas: int(
      'The number of available non-terminating pods (ready for at least minReadySeconds) for this replica set.',
    ),
    observedGeneration: int(
      'ObservedGeneration reflects the generation of the most recently observed ReplicaSet.',
    ),
    conditions: conditions(
      'ReplicaSetCondition',
      "Represents the latest available observations of a replica set's current state.",
    ),
  }),
  ReplicaSetCondition: struct(conditionFields()),

  StatefulSet: kind(
    'StatefulSet represents a set of pods with consistent identities: network names and stable storage that persist across rescheduling.',
    {
      spec: a('StatefulSetSpec', 'Spec defines the desired identities of pods in this set.'),
      status: a('StatefulSetStatus', 'Status is the current status of Pods in this StatefulSet.'),
    },
  ),
  StatefulSetSpec: struct({
    replicas: int(
      'replicas is the desired number of replicas of the given Template. Defaults to 1.',
    ),
    selector: selector(
      "selector is a label query over pods that should match the replica count. It must match the pod template's labels.",
    ),
    template: template(
      'template is the object that describes the pod that will be created if insufficient replicas are detected.',
    ),
    volumeClaimTemplates: listOf(
      c('PersistentVolumeClaim'),
      'volumeClaimTemplates is a list of claims that pods are allowed to reference.',
    ),
    serviceName: str('serviceName is the name of the service that governs this StatefulSet.'),
    podManagementPolicy: enumOf(
      ['OrderedReady', 'Parallel'],
      'podManagementPolicy controls how pods are created during initial scale up, when replacing pods on nodes, or when scaling down.',
    ),
    updateStrategy: a(
      'StatefulSetUpdateStrategy',
      'updateStrategy indicates the StatefulSetUpdateStrategy that will be employed to update Pods in the StatefulSet when a revision is made to Template.',
    ),
    revisionHistoryLimit: int(
      "revisionHistoryLimit is the maximum number of revisions that will be maintained in the StatefulSet's revision history. Defaults to 10.",
    ),
    minReadySeconds: minReadySeconds(),
    persistentVolumeClaimRetentionPolicy: a(
      'StatefulSetPersistentVolumeClaimRetentionPolicy',
      'persistentVolumeClaimRetentionPolicy describes the lifecycle of persistent volume claims created from volumeClaimTemplates.',
    ),
    ordinals: a(
      'StatefulSetOrdinals',
      'ordinals controls the numbering of replica indices in a StatefulSet.',
    ),
  }),
  StatefulSetUpdateStrategy: struct(
    {
      type: enumOf(
        ['RollingUpdate', 'OnDelete'],
        'Type indicates the type of the StatefulSetUpdateStrategy. Default is RollingUpdate.',
      ),
      rollingUpdate: a(
        'RollingUpdateStatefulSetStrategy',
        'RollingUpdate is used to communicate parameters when Type is RollingUpdateStatefulSetStrategyType.',
      ),
    },
    {
      description:
        'StatefulSetUpdateStrategy indicates the strategy that the StatefulSet controller will use to perform updates.',
      retainKeys: true,
    },
  ),
  RollingUpdateStatefulSetStrategy: struct({
    partition: int(
      'Partition indicates the ordinal at which the StatefulSet should be partitioned for updates. Default value is 0.',
    ),
    maxUnavailable: intOrString(
      'The maximum number of pods that can be unavailable during the update. Defaults to 1.',
    ),
  }),
  StatefulSetPersistentVolumeClaimRetentionPolicy: struct({
    whenDeleted: enumOf(
      ['Retain', 'Delete'],
      'WhenDeleted specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is deleted.',
    ),
    whenScaled: enumOf(
      ['Retain', 'Delete'],
      'WhenScaled specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is scaled down.',
    ),
  }),
  StatefulSetOrdinals: struct({
    start: int("start is the number representing the first replica's index. Default is 0."),
  }),
  StatefulSetStatus: struct({
    observedGeneration: int(
      'observedGeneration is the most recent generation observed for this StatefulSet.',
    ),
    replicas: required(
      int('replicas is the number of Pods created by the StatefulSet controller.'),
    ),
    readyReplicas: int(
      'readyReplicas is the number of pods created for this StatefulSet with a Ready Condition.',
    ),
    currentReplicas: int(
      'currentReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by currentRevision.',
    ),
    updatedReplicas: int(
      'updatedReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by updateRevision.',
    ),
    currentRevision: str(
      'currentRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [0,currentReplicas).',
    ),
    updateRevision: str(
      'updateRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [replicas-updatedReplicas,replicas)',
    ),
    collisionCount: collisionCount(),
    conditions: conditions(
      'StatefulSetCondition',
      "Represents the latest available observations of a statefulset's current state.",
    ),
    availableReplicas: int(
      'Total number of available pods (ready for at least minReadySeconds) targeted by this statefulset.',
    ),
  }),
  StatefulSetCondition: struct(conditionFields()),

  DaemonSet: kind('DaemonSet represents the configuration of a daemon set.', {
    spec: a('DaemonSetSpec', 'The desired behavior of this daemon set.'),
    status: a('DaemonSetStatus', 'The current status of this daemon set.'),
  }),
  DaemonSetSpec: struct({
    selector: selector(
      "A label query over pods that are managed by the daemon set. It must match the pod template's labels.",
    ),
    template: template(
      "An object that describes the pod that will be created. The DaemonSet will create exactly one copy of this pod on every node that matches the template's node selector.",
    ),
    updateStrategy: a(
      'DaemonSetUpdateStrategy',
      'An update strategy to replace existing DaemonSet pods with new pods.',
    ),
    minReadySeconds: minReadySeconds(),
    revisionHistoryLimit: revisionHistoryLimit(10),
  }),
  DaemonSetUpdateStrategy: struct(
    {
      type: enumOf(
        ['RollingUpdate', 'OnDelete'],
        'Type of daemon set update. Can be "RollingUpdate" or "OnDelete". Default is RollingUpdate.',
      ),
      rollingUpdate: a(
        'RollingUpdateDaemonSet',
        'Rolling update config params. Present only if type = "RollingUpdate".',
      ),
    },
    {
      description:
        'DaemonSetUpdateStrategy is a struct used to control the update strategy for a DaemonSet.',
      retainKeys: true,
    },
  ),
  RollingUpdateDaemonSet: struct({
    maxUnavailable: intOrString(
      'The maximum number of DaemonSet pods that can be unavailable during the update. Default value is 1.',
    ),
    maxSurge: intOrString(
      'The maximum number of nodes with an existing available DaemonSet pod that can have an updated DaemonSet pod during during an update. Default value is 0.',
    ),
  }),
  DaemonSetStatus: struct({
    currentNumberScheduled: required(
      int(
        'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.',
      ),
    ),
    numberMisscheduled: required(
      int(
        'The number of nodes that are running the daemon pod, but are not supposed to run the daemon pod.',
      ),
    ),
    desiredNumberScheduled: required(
      int(
        'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).',
      ),
    ),
    numberReady: required(
      int(
        'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.',
      ),
    ),
    observedGeneration: int('The most recent generation observed by the daemon set controller.'),
    updatedNumberScheduled: int('The total number of nodes that are running updated daemon pod'),
    numberAvailable: int(
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
    ),
    numberUnavailable: int(
      'The number of nodes that should be running the daemon pod and have none of the daemon pod running and available (ready for at least spec.minReadySeconds)',
    ),
    collisionCount: collisionCount(),
    conditions: conditions(
      'DaemonSetCondition',
      "Represents the latest available observations of a DaemonSet's current state.",
    ),
  }),
  DaemonSetCondition: struct(conditionFields()),

  ControllerRevision: kind(
    'ControllerRevision implements an immutable snapshot of state data. Clients are responsible for serializing and deserializing the objects that contain their internal state.',
    {
      data: any('Data is the serialized representation of the state.'),
      revision: required(int('Revision indicates the revision of the state represented by Data.')),
    },
  ),
})
