/** The core/v1 volume sources backed by a cloud provider's disks and file shares. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, bool, group, int, required, str, struct } from '../dsl'
import { localRef } from './shorthands'

export const coreV1CloudVolumes: SchemaSet = group(CORE, {
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
  CinderVolumeSource: struct({
    volumeID: required(str('volumeID used to identify the volume in cinder.')),
    fsType: str('fsType is the filesystem type to mount.'),
    readOnly: bool('readOnly defaults to false (read/write).'),
    secretRef: localRef(
      'secretRef is optional: points to a secret object containing parameters used to connect to OpenStack.',
    ),
  }),
  AzureFileVolumeSource: struct({
    secretName: required(
      str('secretName is the  name of secret that contains Azure Storage Account Name and Key'),
    ),
    shareName: required(str('shareName is the azure share Name')),
    readOnly: bool('readOnly defaults to false (read/write).'),
  }),
  AzureDiskVolumeSource: struct({
    diskName: required(str('diskName is the Name of the data disk in the blob storage')),
    diskURI: required(str('diskURI is the URI of data disk in the blob storage')),
    cachingMode: str('cachingMode is the Host Caching mode: None, Read Only, Read Write.'),
    fsType: str('fsType is Filesystem type to mount.'),
    readOnly: bool('readOnly Defaults to false (read/write).'),
    kind: str('kind expected values are Shared, Dedicated, Managed. defaults to shared'),
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
  PhotonPersistentDiskVolumeSource: struct({
    pdID: required(str('pdID is the ID that identifies Photon Controller persistent disk')),
    fsType: str('fsType is the filesystem type to mount.'),
  }),
})
