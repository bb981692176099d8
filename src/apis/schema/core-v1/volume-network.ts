/**
 * The core/v1 volume sources served by network and block storage plugins (NFS, iSCSI, Ceph, CSI
 * and the like).
 */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, bool, group, int, required, str, struct } from '../dsl'
import { labels, localRef, strings } from './shorthands'

export const coreV1NetworkVolumes: SchemaSet = group(CORE, {
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
  FCVolumeSource: struct({
    targetWWNs: strings('targetWWNs is Optional: FC target worldwide names (WWNs)'),
    lun: int('lun is Optional: FC target lun number'),
    fsType: str('fsType is the filesystem type to mount.'),
    readOnly: bool('readOnly is Optional: Defaults to false (read/write).'),
    wwids: strings('wwids Optional: FC volume world wide identifiers (wwids)'),
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
})
