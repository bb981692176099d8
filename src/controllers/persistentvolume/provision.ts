/** The local-path provisioner: a PersistentVolume for a claim, a directory on the node chosen for its pod. */
import type { KubeObject } from '../../apimachinery/types'
import {
  LOCAL_PATH_CLEANUP_FINALIZER,
  LOCAL_PATH_NODE_LABEL,
  LOCAL_PATH_PROVISIONER,
  LOCAL_PATH_ROOT_ANNOTATION,
  PROVISIONED_BY_ANNOTATION,
} from '../../apis/storage/annotations'
import { asRecord as rec, type Json } from '../../apimachinery/json-value'

/** Upstream's name for a provisioned volume: `pvc-<claim uid>`. */
export const provisionedName = (pvc: KubeObject): string => `pvc-${pvc.metadata.uid ?? ''}`

/** The directory under which the node keeps its local-path volumes, or undefined when it advertises none. */
export const localPathRoot = (node: KubeObject | undefined): string | undefined =>
  node?.metadata.annotations?.[LOCAL_PATH_ROOT_ANNOTATION] || undefined

/**
 * The PersistentVolume provisioned for `pvc` of `cls` on `node`: a `local` volume at
 * `<root>/<pv name>`, pinned to the node by `kubernetes.io/hostname`, pre-bound to the claim.
 */
export function localPathVolume(
  pvc: KubeObject,
  cls: KubeObject,
  node: KubeObject,
  root: string,
): KubeObject {
  const spec = rec(pvc.spec)
  const name = provisionedName(pvc)
  const hostname = node.metadata.labels?.['kubernetes.io/hostname']
  const term = hostname
    ? { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [hostname] }] }
    : {
        matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.metadata.name ?? ''] }],
      }
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name,
      finalizers: [LOCAL_PATH_CLEANUP_FINALIZER],
      labels: { [LOCAL_PATH_NODE_LABEL]: node.metadata.name ?? '' },
      annotations: { [PROVISIONED_BY_ANNOTATION]: LOCAL_PATH_PROVISIONER },
    },
    spec: {
      capacity: { storage: rec(rec(spec.resources).requests).storage },
      accessModes: spec.accessModes,
      persistentVolumeReclaimPolicy: cls.reclaimPolicy ?? 'Delete',
      storageClassName: cls.metadata.name,
      volumeMode: spec.volumeMode ?? 'Filesystem',
      ...(Array.isArray(cls.mountOptions) ? { mountOptions: cls.mountOptions } : {}),
      local: { path: `${root.replace(/\/+$/, '')}/${name}` },
      nodeAffinity: { required: { nodeSelectorTerms: [term] } },
      claimRef: {
        kind: 'PersistentVolumeClaim',
        apiVersion: 'v1',
        namespace: pvc.metadata.namespace,
        name: pvc.metadata.name,
        uid: pvc.metadata.uid,
      },
    },
  }
}
