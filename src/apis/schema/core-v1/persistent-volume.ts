/**
 * Structural schema of core/v1 PersistentVolume (k8s.io/api/core/v1) as of Kubernetes v1.32, with
 * the persistent variants of the volume sources (those that name a SecretReference or carry
 * fields a pod's inline source lacks). The sources shared with pods are the
 * volume*.ts files' structs.
 */
import type { FieldDef, SchemaSet, StructDef } from '../../../apimachinery/schema-types'
import {
  CORE,
  bool,
  enumOf,
  group,
  kind,
  mapOf,
  quantity,
  required,
  str,
  struct,
  time,
} from '../dsl'
import { c, strings } from './shorthands'
import { coreV1Volume } from './volume'
import { coreV1CloudVolumes } from './volume-cloud'
import { coreV1NetworkVolumes } from './volume-network'
import { coreV1ProjectedVolumes } from './volume-projected'

/** The volume sources a pod names inline, by their full struct names. */
const inlineSources: SchemaSet = {
  ...coreV1Volume,
  ...coreV1ProjectedVolumes,
  ...coreV1NetworkVolumes,
  ...coreV1CloudVolumes,
}

const secretRef = (description?: string) => c('SecretReference', description)

/** A pod's inline volume source with a field or two of its persistent variant instead. */
const persistentVariant = (inline: string, fields: Record<string, FieldDef>): StructDef => {
  const base = inlineSources[CORE + inline]
  if (!base) throw new Error(`no struct ${inline}`)
  return struct({ ...base.fields, ...fields })
}
const withSecretRef = (inline: string) =>
  persistentVariant(inline, {
    secretRef: secretRef(
      'secretRef references the secret holding the credentials for this volume.',
    ),
  })

export const coreV1Storage: SchemaSet = group(CORE, {
  GlusterfsPersistentVolumeSource: persistentVariant('GlusterfsVolumeSource', {
    endpointsNamespace: str(
      'endpointsNamespace is the namespace that contains Glusterfs endpoint.',
    ),
  }),
  RBDPersistentVolumeSource: withSecretRef('RBDVolumeSource'),
  ISCSIPersistentVolumeSource: withSecretRef('ISCSIVolumeSource'),
  CinderPersistentVolumeSource: withSecretRef('CinderVolumeSource'),
  FlexPersistentVolumeSource: withSecretRef('FlexVolumeSource'),
  ScaleIOPersistentVolumeSource: persistentVariant('ScaleIOVolumeSource', {
    secretRef: required(
      secretRef(
        'secretRef references to the secret for ScaleIO user and other sensitive information.',
      ),
    ),
  }),
  StorageOSPersistentVolumeSource: persistentVariant('StorageOSVolumeSource', {
    secretRef: c(
      'ObjectReference',
      'secretRef specifies the secret to use for obtaining the StorageOS API credentials.',
    ),
  }),
  PersistentVolume: kind(
    'PersistentVolume (PV) is a storage resource provisioned by an administrator. It is analogous to a node.',
    {
      spec: c(
        'PersistentVolumeSpec',
        'spec defines a specification of a persistent volume owned by the cluster. Provisioned by an administrator.',
      ),
      status: c(
        'PersistentVolumeStatus',
        'status represents the current information/status for the persistent volume. Populated by the system. Read-only.',
      ),
    },
  ),
  PersistentVolumeSpec: struct(
    {
      capacity: mapOf(
        quantity(),
        "capacity is the description of the persistent volume's resources and capacity.",
      ),
      gcePersistentDisk: c(
        'GCEPersistentDiskVolumeSource',
        'Deprecated: GCEPersistentDisk is deprecated.',
      ),
      awsElasticBlockStore: c(
        'AWSElasticBlockStoreVolumeSource',
        'Deprecated: AWSElasticBlockStore is deprecated.',
      ),
      hostPath: c(
        'HostPathVolumeSource',
        'hostPath represents a directory on the host. Provisioned by a developer or tester.',
      ),
      glusterfs: c(
        'GlusterfsPersistentVolumeSource',
        'Deprecated: Glusterfs is deprecated and the in-tree glusterfs type is no longer supported.',
      ),
      nfs: c(
        'NFSVolumeSource',
        'nfs represents an NFS mount on the host. Provisioned by an admin.',
      ),
      rbd: c(
        'RBDPersistentVolumeSource',
        'Deprecated: RBD is deprecated and the in-tree rbd type is no longer supported.',
      ),
      iscsi: c(
        'ISCSIPersistentVolumeSource',
        "iscsi represents an ISCSI Disk resource that is attached to a kubelet's host machine and then exposed to the pod.",
      ),
      cinder: c('CinderPersistentVolumeSource', 'Deprecated: Cinder is deprecated.'),
      cephfs: c(
        'CephFSPersistentVolumeSource',
        'Deprecated: CephFS is deprecated and the in-tree cephfs type is no longer supported.',
      ),
      fc: c(
        'FCVolumeSource',
        "fc represents a Fibre Channel resource that is attached to a kubelet's host machine and then exposed to the pod.",
      ),
      flocker: c(
        'FlockerVolumeSource',
        'Deprecated: Flocker is deprecated and the in-tree flocker type is no longer supported.',
      ),
      flexVolume: c('FlexPersistentVolumeSource', 'Deprecated: FlexVolume is deprecated.'),
      azureFile: c('AzureFilePersistentVolumeSource', 'Deprecated: AzureFile is deprecated.'),
      vsphereVolume: c(
        'VsphereVirtualDiskVolumeSource',
        'Deprecated: VsphereVolume is deprecated.',
      ),
      quobyte: c(
        'QuobyteVolumeSource',
        'Deprecated: Quobyte is deprecated and the in-tree quobyte type is no longer supported.',
      ),
      azureDisk: c('AzureDiskVolumeSource', 'Deprecated: AzureDisk is deprecated.'),
      photonPersistentDisk: c(
        'PhotonPersistentDiskVolumeSource',
        'Deprecated: PhotonPersistentDisk is deprecated and the in-tree photonPersistentDisk type is no longer supported.',
      ),
      portworxVolume: c('PortworxVolumeSource', 'Deprecated: PortworxVolume is deprecated.'),
      scaleIO: c(
        'ScaleIOPersistentVolumeSource',
        'Deprecated: ScaleIO is deprecated and the in-tree scaleIO type is no longer supported.',
      ),
      local: c(
        'LocalVolumeSource',
        'local represents directly-attached storage with node affinity',
      ),
      storageos: c(
        'StorageOSPersistentVolumeSource',
        'Deprecated: StorageOS is deprecated and the in-tree storageos type is no longer supported.',
      ),
      csi: c(
        'CSIPersistentVolumeSource',
        'csi represents storage that is handled by an external CSI driver.',
      ),
      accessModes: strings('accessModes contains all ways the volume can be mounted.'),
      claimRef: c(
        'ObjectReference',
        'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.',
      ),
      persistentVolumeReclaimPolicy: enumOf(
        ['Delete', 'Recycle', 'Retain'],
        'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.',
      ),
      storageClassName: str(
        'storageClassName is the name of StorageClass to which this persistent volume belongs. Empty value means that this volume does not belong to any StorageClass.',
      ),
      mountOptions: strings(
        'mountOptions is the list of mount options, e.g. ["ro", "soft"]. Not validated - mount will simply fail if one is invalid.',
      ),
      volumeMode: enumOf(
        ['Block', 'Filesystem'],
        'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.',
      ),
      nodeAffinity: c(
        'VolumeNodeAffinity',
        'nodeAffinity defines constraints that limit what nodes this volume can be accessed from.',
      ),
      volumeAttributesClassName: str(
        'Name of VolumeAttributesClass to which this persistent volume belongs.',
      ),
    },
    { retainKeys: true },
  ),
  PersistentVolumeStatus: struct({
    phase: enumOf(
      ['Available', 'Bound', 'Failed', 'Pending', 'Released'],
      'phase indicates if a volume is available, bound to a claim, or released by a claim.',
    ),
    message: str(
      'message is a human-readable message indicating details about why the volume is in this state.',
    ),
    reason: str(
      'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
    ),
    lastPhaseTransitionTime: time(
      'lastPhaseTransitionTime is the time the phase transitioned from one to another and automatically resets to current time everytime a volume phase transitions.',
    ),
  }),
  SecretReference: struct({
    name: str('name is unique within a namespace to reference a secret resource.'),
    namespace: str('namespace defines the space within which the secret name must be unique.'),
  }),
  VolumeNodeAffinity: struct({
    required: c('NodeSelector', 'required specifies hard node constraints that must be met.'),
  }),
  LocalVolumeSource: struct({
    path: required(
      str(
        'path of the full path to the volume on the node. It can be either a directory or block device (disk, partition, ...).',
      ),
    ),
    fsType: str(
      'fsType is the filesystem type to mount. It applies only when the Path is a block device.',
    ),
  }),
  CephFSPersistentVolumeSource: struct({
    monitors: required(strings('monitors is Required: Monitors is a collection of Ceph monitors.')),
    path: str(
      'path is Optional: Used as the mounted root, rather than the full Ceph tree, default is /',
    ),
    user: str('user is Optional: User is the rados user name, default is admin'),
    secretFile: str(
      'secretFile is Optional: SecretFile is the path to key ring for User, default is /etc/ceph/user.secret',
    ),
    secretRef: secretRef(
      'secretRef is Optional: SecretRef is reference to the authentication secret for User, default is empty.',
    ),
    readOnly: bool('readOnly is Optional: Defaults to false (read/write).'),
  }),
  AzureFilePersistentVolumeSource: struct({
    secretName: required(
      str('secretName is the name of secret that contains Azure Storage Account Name and Key'),
    ),
    shareName: required(str('shareName is the azure Share Name')),
    readOnly: bool('readOnly defaults to false (read/write).'),
    secretNamespace: str(
      'secretNamespace is the namespace of the secret that contains Azure Storage Account Name and Key default is the same as the Pod',
    ),
  }),
  CSIPersistentVolumeSource: struct({
    driver: required(str('driver is the name of the driver to use for this volume. Required.')),
    volumeHandle: required(
      str(
        'volumeHandle is the unique volume name returned by the CSI volume plugin’s CreateVolume to refer to the volume on all subsequent calls. Required.',
      ),
    ),
    readOnly: bool(
      'readOnly value to pass to ControllerPublishVolumeRequest. Defaults to false (read/write).',
    ),
    fsType: str(
      'fsType to mount. Must be a filesystem type supported by the host operating system.',
    ),
    volumeAttributes: mapOf(str(), 'volumeAttributes of the volume to publish.'),
    controllerPublishSecretRef: secretRef(
      'controllerPublishSecretRef is a reference to the secret object containing sensitive information to pass to the CSI driver to complete the CSI ControllerPublishVolume and ControllerUnpublishVolume calls.',
    ),
    nodeStageSecretRef: secretRef(
      'nodeStageSecretRef is a reference to the secret object containing sensitive information to pass to the CSI driver to complete the CSI NodeStageVolume and NodeStageVolume and NodeUnstageVolume calls.',
    ),
    nodePublishSecretRef: secretRef(
      'nodePublishSecretRef is a reference to the secret object containing sensitive information to pass to the CSI driver to complete the CSI NodePublishVolume and NodeUnpublishVolume calls.',
    ),
    controllerExpandSecretRef: secretRef(
      'controllerExpandSecretRef is a reference to the secret object containing sensitive information to pass to the CSI driver to complete the CSI ControllerExpandVolume call.',
    ),
    nodeExpandSecretRef: secretRef(
      'nodeExpandSecretRef is a reference to the secret object containing sensitive information to pass to the CSI driver to complete the CSI NodeExpandVolume call.',
    ),
  }),
})
