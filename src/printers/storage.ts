/** Tables for storage: PersistentVolume, PersistentVolumeClaim, StorageClass, CSIDriver (columns of upstream's printers). */
import type { KubeObject } from '../apimachinery/types'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'
import { list, record } from './format'
import type { Json } from '../apimachinery/json-value'

/** GetAccessModesAsString: the abbreviations in upstream's fixed order. */
export function accessModesString(modes: unknown): string {
  const have = new Set(list(modes as string[]))
  return [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ]
    .filter(([m]) => have.has(m!))
    .map(([, short]) => short)
    .join(',')
}

const phaseOf = (obj: KubeObject) =>
  obj.metadata.deletionTimestamp ? 'Terminating' : String(record(obj.status as Json).phase ?? '')
const storageOf = (capacity: unknown) => String(record(capacity as Json).storage ?? '')
const className = (obj: KubeObject, spec: Json) =>
  String(
    spec.storageClassName ??
      obj.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ??
      '',
  )

export const persistentVolumePrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'Capacity',
      'string',
      "capacity is the description of the persistent volume's resources and capacity.",
    ),
    column('Access Modes', 'string', 'accessModes contains all ways the volume can be mounted.'),
    column(
      'Reclaim Policy',
      'string',
      'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.',
    ),
    column(
      'Status',
      'string',
      'phase indicates if a volume is available, bound to a claim, or released by a claim.',
    ),
    column(
      'Claim',
      'string',
      'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.',
    ),
    column(
      'StorageClass',
      'string',
      'storageClassName is the name of StorageClass to which this persistent volume belongs.',
    ),
    column(
      'VolumeAttributesClass',
      'string',
      'Name of VolumeAttributesClass to which this persistent volume belongs.',
    ),
    column('Reason', 'string', 'reason is a brief CamelCase string that describes any failure.'),
    ageColumn,
    column(
      'VolumeMode',
      'string',
      'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.',
      1,
    ),
  ],
  cells(obj, now) {
    const spec = record(obj.spec as Json)
    const claim = record(spec.claimRef as Json)
    const claimName = claim.name ? `${claim.namespace ?? ''}/${claim.name}` : ''
    return [
      objectName(obj),
      storageOf(spec.capacity),
      accessModesString(spec.accessModes),
      String(spec.persistentVolumeReclaimPolicy ?? ''),
      phaseOf(obj),
      claimName,
      className(obj, spec),
      String(spec.volumeAttributesClassName || '<unset>'),
      String(record(obj.status as Json).reason ?? ''),
      objectAge(obj, now),
      String(spec.volumeMode ?? '<unset>'),
    ]
  },
}

export const persistentVolumeClaimPrinter: Printer = {
  columns: [
    nameColumn,
    column('Status', 'string', 'phase represents the current phase of PersistentVolumeClaim.'),
    column(
      'Volume',
      'string',
      'volumeName is the binding reference to the PersistentVolume backing this claim.',
    ),
    column(
      'Capacity',
      'string',
      'capacity represents the actual resources of the underlying volume.',
    ),
    column(
      'Access Modes',
      'string',
      'accessModes contains the actual access modes the volume backing the PVC has.',
    ),
    column(
      'StorageClass',
      'string',
      'storageClassName is the name of the StorageClass required by the claim.',
    ),
    column(
      'VolumeAttributesClass',
      'string',
      'volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim.',
    ),
    ageColumn,
    column(
      'VolumeMode',
      'string',
      'volumeMode defines what type of volume is required by the claim.',
      1,
    ),
  ],
  cells(obj, now) {
    const spec = record(obj.spec as Json)
    const status = record(obj.status as Json)
    const bound = !!spec.volumeName
    return [
      objectName(obj),
      phaseOf(obj),
      String(spec.volumeName ?? ''),
      bound ? storageOf(status.capacity) : '',
      bound ? accessModesString(status.accessModes) : '',
      className(obj, spec),
      String(status.currentVolumeAttributesClassName || '<unset>'),
      objectAge(obj, now),
      String(spec.volumeMode ?? '<unset>'),
    ]
  },
}

export const defaultStorageClassAnnotation = 'storageclass.kubernetes.io/is-default-class'

export const storageClassPrinter: Printer = {
  columns: [
    nameColumn,
    column('Provisioner', 'string', 'provisioner indicates the type of the provisioner.'),
    column(
      'ReclaimPolicy',
      'string',
      'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class.',
    ),
    column(
      'VolumeBindingMode',
      'string',
      'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.',
    ),
    column(
      'AllowVolumeExpansion',
      'string',
      'allowVolumeExpansion shows whether the storage class allow volume expand.',
    ),
    ageColumn,
  ],
  cells(obj, now) {
    const isDefault =
      ['true', 'True'].includes(obj.metadata.annotations?.[defaultStorageClassAnnotation] ?? '') ||
      obj.metadata.annotations?.['storageclass.beta.kubernetes.io/is-default-class'] === 'true'
    return [
      objectName(obj) + (isDefault ? ' (default)' : ''),
      String(obj.provisioner ?? ''),
      String(obj.reclaimPolicy ?? 'Delete'),
      String(obj.volumeBindingMode ?? 'Immediate'),
      obj.allowVolumeExpansion === true ? 'true' : 'false',
      objectAge(obj, now),
    ]
  },
}

export const csiDriverPrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'AttachRequired',
      'boolean',
      'attachRequired indicates this CSI volume driver requires an attach operation.',
    ),
    column(
      'PodInfoOnMount',
      'boolean',
      'podInfoOnMount indicates this CSI volume driver requires additional pod information during mount operations.',
    ),
    column(
      'StorageCapacity',
      'boolean',
      'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider storage capacity.',
    ),
    column(
      'TokenRequests',
      'string',
      "tokenRequests indicates the CSI driver needs pods' service account tokens.",
    ),
    column(
      'RequiresRepublish',
      'boolean',
      'requiresRepublish indicates the CSI driver wants NodePublishVolume being periodically called.',
    ),
    column(
      'Modes',
      'string',
      'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports.',
    ),
    ageColumn,
  ],
  cells(obj, now) {
    const spec = record(obj.spec as Json)
    const tokens = list(spec.tokenRequests as Json[])
      .map((t) => String(t.audience ?? ''))
      .join(',')
    const modes = list(spec.volumeLifecycleModes as string[]).join(',')
    return [
      objectName(obj),
      spec.attachRequired === true,
      spec.podInfoOnMount === true,
      spec.storageCapacity === true,
      tokens || '<unset>',
      spec.requiresRepublish === true,
      modes || '<none>',
      objectAge(obj, now),
    ]
  },
}
