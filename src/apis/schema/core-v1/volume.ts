/** A pod's Volume in core/v1 and every inline volume source. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, bool, enumOf, group, int, listOf, quantity, required, str, struct } from '../dsl'
import { c, labels, localRef, m, strings } from './shorthands'

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
  GCEPersistentDiskVolumeSource: struct({
    pdName: required(str('pdName is unique name of the PD resource in GCE.')),
    fsType: str('fsType is filesystem type of the volume that you want to mount.'),
    partition: int('partition is the partition in the volume that you want to mount.'),
    readOnly: bool('readOnly here will force the ReadOnly setting in VolumeMounts.'),
  }),
  AWSElasticBlockStoreVolumeSource: struct({
    volumeID: required(
      str('volumeID is unique ID of the persistent disk resource in AWS (Amazon EBS volume).'),
    ),
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
    items: listOf(
      c('KeyToPath'),
      'items If unspecified, each key-value pair in the Data field of the referenced Secret will be projected into the volume as a file whose name is the key and content is the value.',
    ),
    defaultMode: int(
      'defaultMode is Optional: mode bits used to set permissions on created files by default. Defaults to 0644.',
    ),
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
    readOnly: bool(
      'readOnly here will force the NFS export to be mounted with read-only permissions. Defaults to false.',
    ),
  }),
  ISCSIVolumeSource: struct({
    targetPortal: required(str('targetPortal is iSCSI Target Portal.')),
    iqn: required(str('iqn is the target iSCSI Qualified Name.')),
    lun: required(int('lun represents iSCSI Target Lun number.')),
    iscsiInterface: str(
      "iscsiInterface is the interface Name that uses an iSCSI transport. Defaults to 'default' (tcp).",
    ),
    fsType: str('fsType is the filesystem type of the volume that you want to mount.'),
    readOnly: bool(
      'readOnly here will force the ReadOnly setting in VolumeMounts. Defaults to false.',
    ),
    portals: strings('portals is the iSCSI Target Portal List.'),
    chapAuthDiscovery: bool(
      'chapAuthDiscovery defines whether support iSCSI Discovery CHAP authentication',
    ),
    chapAuthSession: bool(
      'chapAuthSession defines whether support iSCSI Session CHAP authentication',
    ),
    secretRef: localRef(
      'secretRef is the CHAP Secret for iSCSI target and initiator authentication',
    ),
    initiatorName: str('initiatorName is the custom iSCSI Initiator Name.'),
  }),
  GlusterfsVolumeSource: struct({
    endpoints: required(str('endpoints is the endpoint name that details Glusterfs topology.')),
    path: required(str('path is the Glusterfs volume path.')),
    readOnly: bool(
      'readOnly here will force the Glusterfs volume to be mounted with read-only permissions. Defaults to false.',
    ),
  }),
  PersistentVolumeClaimVolumeSource: struct({
    claimName: required(
      str(
        'claimName is the name of a PersistentVolumeClaim in the same namespace as the pod using this volume.',
      ),
    ),
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
    readOnly: bool(
      'readOnly here will force the ReadOnly setting in VolumeMounts. Defaults to false.',
    ),
  }),
  FlexVolumeSource: struct({
    driver: required(str('driver is the name of the driver to use for this volume.')),
    fsType: str('fsType is the filesystem type to mount.'),
    secretRef: localRef(
      'secretRef is Optional: secretRef is reference to the secret object containing sensitive information to pass to the plugin scripts.',
    ),
    readOnly: bool('readOnly is Optional: defaults to false (read/write).'),
    options: labels('options is Optional: this field holds extra command options if any.'),
  }),
  CinderVolumeSource: struct({
    volumeID: required(str('volumeID used to identify the volume in cinder.')),
    fsType: str('fsType is the filesystem type to mount.'),
    readOnly: bool('readOnly defaults to false (read/write).'),
    secretRef: localRef(
      'secretRef is optional: points to a secret object containing parameters used to connect to OpenStack.',
    ),
  }),
  CephFSVolumeSource: struct({
    monitors: required(strings('monitors is Required: Monitors is a collection of Ceph monitors')),
    path: str(
      'path is Optional: Used as the mounted root, rather than the full Ceph tree, default is /',
    ),
    user: str('user is optional: User is the rados user name, default is admin'),
    secretFile: str(
      'secretFile is Optional: SecretFile is the path to key ring for User, default is /etc/ceph/user.secret',
    ),
    secretRef: localRef(
      'secretRef is Optional: SecretRef is reference to the authentication secret for User, default is empty.',
    ),
    readOnly: bool('readOnly is Optional: Defaults to false (read/write).'),
  }),
  FlockerVolumeSource: struct({
    datasetName: str(
      'datasetName is Name of the dataset stored as metadata -> name on the dataset for Flocker',
    ),
    datasetUUID: str(
      'datasetUUID is the UUID of the dataset. This is unique identifier of a Flocker dataset',
    ),
  }),
  DownwardAPIVolumeSource: struct({
    items: listOf(c('DownwardAPIVolumeFile'), 'Items is a list of downward API volume file'),
    defaultMode: int('Optional: mode bits to use on created files by default. Defaults to 0644.'),
  }),
  DownwardAPIVolumeFile: struct({
    path: required(
      str(
        "Required: Path is  the relative path name of the file to be created. Must not be absolute or contain the '..' path.",
      ),
    ),
    fieldRef: c(
      'ObjectFieldSelector',
      'Required: Selects a field of the pod: only annotations, labels, name, namespace and uid are supported.',
    ),
    resourceFieldRef: c(
      'ResourceFieldSelector',
      'Selects a resource of the container: only resources limits and requests are currently supported.',
    ),
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
    secretName: required(
      str('secretName is the  name of secret that contains Azure Storage Account Name and Key'),
    ),
    shareName: required(str('shareName is the azure share Name')),
    readOnly: bool('readOnly defaults to false (read/write).'),
  }),
  ConfigMapVolumeSource: struct({
    name: str('Name of the referent.'),
    items: listOf(
      c('KeyToPath'),
      'items if unspecified, each key-value pair in the Data field of the referenced ConfigMap will be projected into the volume as a file whose name is the key and content is the value.',
    ),
    defaultMode: int(
      'defaultMode is optional: mode bits used to set permissions on created files by default. Defaults to 0644.',
    ),
    optional: bool('optional specify whether the ConfigMap or its keys must be defined'),
  }),
  VsphereVirtualDiskVolumeSource: struct({
    volumePath: required(str('volumePath is the path that identifies vSphere volume vmdk')),
    fsType: str('fsType is filesystem type to mount.'),
    storagePolicyName: str(
      'storagePolicyName is the storage Policy Based Management (SPBM) profile name.',
    ),
    storagePolicyID: str(
      'storagePolicyID is the storage Policy Based Management (SPBM) profile ID associated with the StoragePolicyName.',
    ),
  }),
  QuobyteVolumeSource: struct({
    registry: required(
      str(
        'registry represents a single or multiple Quobyte Registry services specified as a string as host:port pair.',
      ),
    ),
    volume: required(
      str('volume is a string that references an already created Quobyte volume by name.'),
    ),
    readOnly: bool(
      'readOnly here will force the Quobyte volume to be mounted with read-only permissions. Defaults to false.',
    ),
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
    sources: listOf(
      c('VolumeProjection'),
      'sources is the list of volume projections. Each entry in this list handles one source.',
    ),
    defaultMode: int(
      'defaultMode are the mode bits used to set permissions on created files by default.',
    ),
  }),
  VolumeProjection: struct({
    secret: c('SecretProjection', 'secret information about the secret data to project'),
    downwardAPI: c(
      'DownwardAPIProjection',
      'downwardAPI information about the downwardAPI data to project',
    ),
    configMap: c(
      'ConfigMapProjection',
      'configMap information about the configMap data to project',
    ),
    serviceAccountToken: c(
      'ServiceAccountTokenProjection',
      'serviceAccountToken is information about the serviceAccountToken data to project',
    ),
    clusterTrustBundle: c(
      'ClusterTrustBundleProjection',
      'ClusterTrustBundle allows a pod to access the `.spec.trustBundle` field of ClusterTrustBundle objects in an auto-updating file.',
    ),
  }),
  SecretProjection: struct({
    name: str('Name of the referent.'),
    items: listOf(
      c('KeyToPath'),
      'items if unspecified, each key-value pair in the Data field of the referenced Secret will be projected into the volume.',
    ),
    optional: bool('optional field specify whether the Secret or its key must be defined'),
  }),
  ConfigMapProjection: struct({
    name: str('Name of the referent.'),
    items: listOf(
      c('KeyToPath'),
      'items if unspecified, each key-value pair in the Data field of the referenced ConfigMap will be projected into the volume.',
    ),
    optional: bool('optional specify whether the ConfigMap or its keys must be defined'),
  }),
  DownwardAPIProjection: struct({
    items: listOf(c('DownwardAPIVolumeFile'), 'Items is a list of DownwardAPIVolume file'),
  }),
  ServiceAccountTokenProjection: struct({
    audience: str('audience is the intended audience of the token.'),
    expirationSeconds: int(
      'expirationSeconds is the requested duration of validity of the service account token. Defaults to 1 hour.',
    ),
    path: required(
      str('path is the path relative to the mount point of the file to project the token into.'),
    ),
  }),
  ClusterTrustBundleProjection: struct({
    name: str('Select a single ClusterTrustBundle by object name.'),
    signerName: str('Select all ClusterTrustBundles that match this signer name.'),
    labelSelector: m(
      'LabelSelector',
      'Select all ClusterTrustBundles that match this label selector.',
    ),
    optional: bool(
      "If true, don't block pod startup if the referenced ClusterTrustBundle(s) aren't available.",
    ),
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
    secretRef: required(
      localRef(
        'secretRef references to the secret for ScaleIO user and other sensitive information.',
      ),
    ),
    sslEnabled: bool(
      'sslEnabled Flag enable/disable SSL communication with Gateway, default false',
    ),
    protectionDomain: str(
      'protectionDomain is the name of the ScaleIO Protection Domain for the configured storage.',
    ),
    storagePool: str(
      'storagePool is the ScaleIO Storage Pool associated with the protection domain.',
    ),
    storageMode: str(
      'storageMode indicates whether the storage for a volume should be ThickProvisioned or ThinProvisioned.',
    ),
    volumeName: str(
      'volumeName is the name of a volume already created in the ScaleIO system that is associated with this volume source.',
    ),
    fsType: str('fsType is the filesystem type to mount.'),
    readOnly: bool('readOnly Defaults to false (read/write).'),
  }),
  StorageOSVolumeSource: struct({
    volumeName: str('volumeName is the human-readable name of the StorageOS volume.'),
    volumeNamespace: str('volumeNamespace specifies the scope of the volume within StorageOS.'),
    fsType: str('fsType is the filesystem type to mount.'),
    readOnly: bool('readOnly defaults to false (read/write).'),
    secretRef: localRef(
      'secretRef specifies the secret to use for obtaining the StorageOS API credentials.',
    ),
  }),
  CSIVolumeSource: struct({
    driver: required(str('driver is the name of the CSI driver that handles this volume.')),
    readOnly: bool(
      'readOnly specifies a read-only configuration for the volume. Defaults to false (read/write).',
    ),
    fsType: str('fsType to mount. Ex. "ext4", "xfs", "ntfs".'),
    volumeAttributes: labels(
      'volumeAttributes stores driver-specific properties that are passed to the CSI driver.',
    ),
    nodePublishSecretRef: localRef(
      'nodePublishSecretRef is a reference to the secret object containing sensitive information to pass to the CSI driver.',
    ),
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
