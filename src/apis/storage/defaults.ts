/** Upstream's defaulting of the storage kinds (SetDefaults_PersistentVolume, …_StorageClass, …_CSIDriver). */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord as rec } from '../../apimachinery/json-value'

export function defaultPersistentVolume(obj: KubeObject): void {
  const spec = (obj.spec = rec(obj.spec))
  spec.persistentVolumeReclaimPolicy ??= 'Retain'
  spec.volumeMode ??= 'Filesystem'
}

export function defaultPersistentVolumeClaim(obj: KubeObject): void {
  const spec = (obj.spec = rec(obj.spec))
  spec.volumeMode ??= 'Filesystem'
}

export function defaultStorageClassObject(obj: KubeObject): void {
  obj.reclaimPolicy ??= 'Delete'
  obj.volumeBindingMode ??= 'Immediate'
}

export function defaultCsiDriver(obj: KubeObject): void {
  if (!obj.spec) return
  const spec = rec(obj.spec)
  spec.attachRequired ??= true
  spec.podInfoOnMount ??= false
  spec.storageCapacity ??= false
  spec.requiresRepublish ??= false
  spec.seLinuxMount ??= false
  spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType'
  spec.volumeLifecycleModes ??= ['Persistent']
}
