/** The PersistentVolumeClaim kind of core/v1, its spec and status. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, enumOf, group, kind, listOf, required, str, struct, time } from '../dsl'
import { CONDITION_STATUS, c, labels, m, quantities, strings } from './shorthands'

export const coreV1PersistentVolumeClaim: SchemaSet = group(CORE, {
  PersistentVolumeClaim: kind(
    "PersistentVolumeClaim is a user's request for and claim to a persistent volume",
    {
      spec: c(
        'PersistentVolumeClaimSpec',
        'spec defines the desired characteristics of a volume requested by a pod author.',
      ),
      status: c(
        'PersistentVolumeClaimStatus',
        'status represents the current information/status of a persistent volume claim.',
      ),
    },
  ),
  PersistentVolumeClaimSpec: struct({
    accessModes: strings('accessModes contains the desired access modes the volume should have.'),
    selector: m('LabelSelector', 'selector is a label query over volumes to consider for binding.'),
    resources: c(
      'VolumeResourceRequirements',
      'resources represents the minimum resources the volume should have.',
    ),
    volumeName: str(
      'volumeName is the binding reference to the PersistentVolume backing this claim.',
    ),
    storageClassName: str(
      'storageClassName is the name of the StorageClass required by the claim.',
    ),
    volumeMode: enumOf(
      ['Block', 'Filesystem'],
      'volumeMode defines what type of volume is required by the claim.',
    ),
    dataSource: c(
      'TypedLocalObjectReference',
      'dataSource field can be used to specify an existing VolumeSnapshot object or an existing PVC.',
    ),
    dataSourceRef: c(
      'TypedObjectReference',
      'dataSourceRef specifies the object from which to populate the volume with data, if a non-empty volume is desired.',
    ),
    volumeAttributesClassName: str(
      'volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim.',
    ),
  }),
  VolumeResourceRequirements: struct({
    limits: quantities('Limits describes the maximum amount of compute resources allowed.'),
    requests: quantities('Requests describes the minimum amount of compute resources required.'),
  }),
  PersistentVolumeClaimStatus: struct({
    phase: enumOf(
      ['Pending', 'Bound', 'Lost'],
      'phase represents the current phase of PersistentVolumeClaim.',
    ),
    accessModes: strings(
      'accessModes contains the actual access modes the volume backing the PVC has.',
    ),
    capacity: quantities('capacity represents the actual resources of the underlying volume.'),
    conditions: listOf(c('PersistentVolumeClaimCondition'), {
      mergeKey: 'type',
      description: 'conditions is the current Condition of persistent volume claim.',
    }),
    allocatedResources: quantities(
      'allocatedResources tracks the resources allocated to a PVC including its capacity.',
    ),
    allocatedResourceStatuses: labels(
      'allocatedResourceStatuses stores status of resource being resized for the given PVC.',
    ),
    currentVolumeAttributesClassName: str(
      'currentVolumeAttributesClassName is the current name of the VolumeAttributesClass the PVC is using.',
    ),
    modifyVolumeStatus: c(
      'ModifyVolumeStatus',
      'ModifyVolumeStatus represents the status object of ControllerModifyVolume operation.',
    ),
  }),
  PersistentVolumeClaimCondition: struct({
    type: required(str('Type is the type of the condition.')),
    status: required(enumOf(CONDITION_STATUS, 'Status is the status of the condition.')),
    lastProbeTime: time('lastProbeTime is the time we probed the condition.'),
    lastTransitionTime: time(
      'lastTransitionTime is the time the condition transitioned from one status to another.',
    ),
    reason: str(
      "reason is a unique, this should be a short, machine understandable string that gives the reason for condition's last transition.",
    ),
    message: str('message is the human-readable message indicating details about last transition.'),
  }),
  ModifyVolumeStatus: struct({
    targetVolumeAttributesClassName: str(
      'targetVolumeAttributesClassName is the name of the VolumeAttributesClass the PVC currently being reconciled',
    ),
    status: required(str('status is the status of the ControllerModifyVolume operation.')),
  }),
})
