/** The storage kinds' strategies: volumes and claims (core/v1), StorageClasses and CSIDrivers. */
import type { KindStrategy } from '../kind-strategy'
import {
  defaultCsiDriver,
  defaultPersistentVolume,
  defaultPersistentVolumeClaim,
  defaultStorageClassObject,
} from './defaults'
import {
  validateCsiDriver,
  validatePersistentVolume,
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimUpdate,
  validatePersistentVolumeUpdate,
  validateStorageClass,
  validateStorageClassUpdate,
} from './validate'

/** A new volume or claim is Pending until the binder looks at it. */
const pending = () => ({ phase: 'Pending' })

export const persistentVolumeStrategy: KindStrategy = {
  defaults: defaultPersistentVolume,
  initialStatus: pending,
  validate: validatePersistentVolume,
  validateUpdate: validatePersistentVolumeUpdate,
}

export const persistentVolumeClaimStrategy: KindStrategy = {
  defaults: defaultPersistentVolumeClaim,
  initialStatus: pending,
  validate: validatePersistentVolumeClaim,
  validateUpdate: validatePersistentVolumeClaimUpdate,
}

/** storage.k8s.io/v1, by resource. */
export const storageStrategies: Record<string, KindStrategy> = {
  storageclasses: {
    defaults: defaultStorageClassObject,
    validate: validateStorageClass,
    validateUpdate: validateStorageClassUpdate,
  },
  csidrivers: { defaults: defaultCsiDriver, validate: validateCsiDriver },
}
