import type { AdmissionBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { findResource } from '../apis/registry'
import { storeFor } from '../store-client/stores'
import { DEFAULT_CLASS_ANNOTATION, LOCAL_PATH_PROVISIONER } from '../apis/storage/annotations'

/**
 * The StorageClass every cluster starts with: a directory on the node the claim's pod runs on.
 * Named after this project so that the widely used `local-path` class of Rancher's
 * local-path-provisioner applies cleanly beside it.
 */
export const localPathClass = 'edgeplane-local-path'

const classesDef = () => findResource('storage.k8s.io', 'v1', 'storageclasses')!

/**
 * Creates the `edgeplane-local-path` StorageClass, marked default, unless it exists (as an addon
 * manager's EnsureExists). A class named `local-path` is none of this server's business: it is
 * left as it is and never created here (see docs/storage.md for clusters that still hold one).
 */
export async function ensureStorageClass(env: AdmissionBindings): Promise<void> {
  const def = classesDef()
  const store = storeFor(env, def)
  if ((await store.get({ def, name: localPathClass })).ok) return
  const cls: KubeObject = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: localPathClass, annotations: { [DEFAULT_CLASS_ANNOTATION]: 'true' } },
    provisioner: LOCAL_PATH_PROVISIONER,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  }
  await store.create({ def, name: localPathClass }, cls, {})
}

/**
 * The DefaultStorageClass admission plugin: a claim created without `storageClassName` (nil, not
 * "", and without the beta annotation) gets the default StorageClass, the newest if several.
 */
export async function defaultStorageClass(env: AdmissionBindings, pvc: KubeObject): Promise<void> {
  const spec = (pvc.spec ??= {}) as { storageClassName?: string | null }
  if (spec.storageClassName !== undefined && spec.storageClassName !== null) return
  if (pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] !== undefined) return
  const res = await storeFor(env, classesDef()).list('storageclasses', {})
  if (!res.ok) return
  const defaults = res.value.items
    .map((t) => JSON.parse(t) as KubeObject)
    .filter((c) =>
      ['true', 'True'].includes(c.metadata.annotations?.[DEFAULT_CLASS_ANNOTATION] ?? ''),
    )
  defaults.sort(
    (a, b) =>
      String(b.metadata.creationTimestamp ?? '').localeCompare(
        String(a.metadata.creationTimestamp ?? ''),
      ) || String(a.metadata.name).localeCompare(String(b.metadata.name)),
  )
  const chosen = defaults[0]?.metadata.name
  if (chosen) spec.storageClassName = chosen
}
