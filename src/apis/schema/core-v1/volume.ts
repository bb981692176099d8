/**
 * A pod's Volume in core/v1 and the sources kept on the node: hostPath, emptyDir, gitRepo, a claim
 * (named or ephemeral) and an image.
 */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, bool, enumOf, group, quantity, required, str, struct } from '../dsl'
import { c, labels, m } from './shorthands'

export const coreV1Volume: SchemaSet = group(CORE, {
  Volume: struct(
    {
      name: required(str('name of the volume. Must be a DNS_LABEL and unique within the pod.')),
      hostPath: c(
        'HostPathVolumeSource',
        'hostPath represents a pre-existing file or directory on the host machine that is directly exposed to the container.',
      ),
      emptyDir: c(
        'EmptyDirVolumeSource',
        "emptyDir represents a temporary directory that shares a pod's lifetime.",
      ),
      gcePersistentDisk: c(
        'GCEPersistentDiskVolumeSource',
        'Deprecated: GCEPersistentDisk is deprecated.',
      ),
      awsElasticBlockStore: c(
        'AWSElasticBlockStoreVolumeSource',
        'Deprecated: AWSElasticBlockStore is deprecated.',
      ),
      gitRepo: c('GitRepoVolumeSource', 'Deprecated: GitRepo is deprecated.'),
      secret: c(
        'SecretVolumeSource',
        'secret represents a secret that should populate this volume.',
      ),
      nfs: c(
        'NFSVolumeSource',
        "nfs represents an NFS mount on the host that shares a pod's lifetime",
      ),
      iscsi: c(
        'ISCSIVolumeSource',
        "iscsi represents an ISCSI Disk resource that is attached to a kubelet's host machine and then exposed to the pod.",
      ),
      glusterfs: c(
        'GlusterfsVolumeSource',
        'Deprecated: Glusterfs is deprecated and the in-tree glusterfs type is no longer supported.',
      ),
      persistentVolumeClaim: c(
        'PersistentVolumeClaimVolumeSource',
        'persistentVolumeClaimVolumeSource represents a reference to a PersistentVolumeClaim in the same namespace.',
      ),
      rbd: c(
        'RBDVolumeSource',
        'Deprecated: RBD is deprecated and the in-tree rbd type is no longer supported.',
      ),
      flexVolume: c('FlexVolumeSource', 'Deprecated: FlexVolume is deprecated.'),
      cinder: c('CinderVolumeSource', 'Deprecated: Cinder is deprecated.'),
      cephfs: c(
        'CephFSVolumeSource',
        'Deprecated: CephFS is deprecated and the in-tree cephfs type is no longer supported.',
      ),
      flocker: c(
        'FlockerVolumeSource',
        'Deprecated: Flocker is deprecated and the in-tree flocker type is no longer supported.',
      ),
      downwardAPI: c(
        'DownwardAPIVolumeSource',
        'downwardAPI represents downward API about the pod that should populate this volume',
      ),
      fc: c(
        'FCVolumeSource',
        "fc represents a Fibre Channel resource that is attached to a kubelet's host machine and then exposed to the pod.",
      ),
      azureFile: c('AzureFileVolumeSource', 'Deprecated: AzureFile is deprecated.'),
      configMap: c(
        'ConfigMapVolumeSource',
        'configMap represents a configMap that should populate this volume',
      ),
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
      projected: c(
        'ProjectedVolumeSource',
        'projected items for all in one resources secrets, configmaps, and downward API',
      ),
      portworxVolume: c('PortworxVolumeSource', 'Deprecated: PortworxVolume is deprecated.'),
      scaleIO: c(
        'ScaleIOVolumeSource',
        'Deprecated: ScaleIO is deprecated and the in-tree scaleIO type is no longer supported.',
      ),
      storageos: c(
        'StorageOSVolumeSource',
        'Deprecated: StorageOS is deprecated and the in-tree storageos type is no longer supported.',
      ),
      csi: c(
        'CSIVolumeSource',
        'csi (Container Storage Interface) represents ephemeral storage that is handled by certain external CSI drivers.',
      ),
      ephemeral: c(
        'EphemeralVolumeSource',
        'ephemeral represents a volume that is handled by a cluster storage driver.',
      ),
      image: c(
        'ImageVolumeSource',
        "image represents an OCI object (a container image or artifact) pulled and mounted on the kubelet's host machine.",
      ),
    },
    {
      description:
        'Volume represents a named volume in a pod that may be accessed by any container in the pod.',
      // VolumeSource is a one-of inlined into Volume: patches carry $retainKeys so switching source type drops the old one
      retainKeys: true,
    },
  ),
  HostPathVolumeSource: struct({
    path: required(
      str(
        'path of the directory on the host. If the path is a symlink, it will follow the link to the real path.',
      ),
    ),
    type: enumOf(
      [
        '',
        'DirectoryOrCreate',
        'Directory',
        'FileOrCreate',
        'File',
        'Socket',
        'CharDevice',
        'BlockDevice',
      ],
      'type for HostPath Volume. Defaults to ""',
    ),
  }),
  EmptyDirVolumeSource: struct({
    medium: str(
      'medium represents what type of storage medium should back this directory. The default is "" which means to use the node\'s default medium.',
    ),
    sizeLimit: quantity(
      'sizeLimit is the total amount of local storage required for this EmptyDir volume.',
    ),
  }),
  GitRepoVolumeSource: struct({
    repository: required(str('repository is the URL')),
    revision: str('revision is the commit hash for the specified revision.'),
    directory: str('directory is the target directory name.'),
  }),
  PersistentVolumeClaimVolumeSource: struct({
    claimName: required(
      str(
        'claimName is the name of a PersistentVolumeClaim in the same namespace as the pod using this volume.',
      ),
    ),
    readOnly: bool('readOnly Will force the ReadOnly setting in VolumeMounts. Default false.'),
  }),
  EphemeralVolumeSource: struct({
    volumeClaimTemplate: c(
      'PersistentVolumeClaimTemplate',
      'Will be used to create a stand-alone PVC to provision the volume.',
    ),
  }),
  PersistentVolumeClaimTemplate: struct({
    metadata: m(
      'ObjectMeta',
      'May contain labels and annotations that will be copied into the PVC when creating it.',
    ),
    spec: required(
      c('PersistentVolumeClaimSpec', 'The specification for the PersistentVolumeClaim.'),
    ),
  }),
  ImageVolumeSource: struct({
    reference: str('Required: Image or artifact reference to be used.'),
    pullPolicy: enumOf(['Always', 'Never', 'IfNotPresent'], 'Policy for pulling OCI objects.'),
  }),
})
