/** Upstream's defaulting of the storage kinds (SetDefaults_PersistentVolume, …_StorageClass, …_CSIDriver). */
import type { KubeObject } from '../../apimachinery/types'

type Json = Record<string, unknown>
const rec = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {})

/** Fills the defaults of a storage kind in place; other kinds are left alone. */
export function defaultStorageObject(group: string, kind: string, obj: KubeObject): void {
  if (group === '' && kind === 'PersistentVolume') {
    const spec = (obj.spec = rec(obj.spec))
    spec.persistentVolumeReclaimPolicy ??= 'Retain'
    spec.volumeMode ??= 'Filesystem'
  }
  if (group === '' && kind === 'PersistentVolumeClaim') {
    const spec = (obj.spec = rec(obj.spec))
    spec.volumeMode ??= 'Filesystem'
  }
  if (group === 'storage.k8s.io' && kind === 'StorageClass') {
    obj.reclaimPolicy ??= 'Delete'
    obj.volumeBindingMode ??= 'Immediate'
  }
  if (group === 'storage.k8s.io' && kind === 'CSIDriver' && obj.spec) {
    const spec = rec(obj.spec)
    spec.attachRequired ??= true
    spec.podInfoOnMount ??= false
    spec.storageCapacity ??= false
    spec.requiresRepublish ??= false
    spec.seLinuxMount ??= false
    spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType'
    spec.volumeLifecycleModes ??= ['Persistent']
  }
}

/** The status a new PersistentVolume or claim starts in: Pending, until the binder looks at it. */
export function initialStorageStatus(group: string, kind: string): Json | undefined {
  return group === '' && (kind === 'PersistentVolume' || kind === 'PersistentVolumeClaim') ? { phase: 'Pending' } : undefined
}
