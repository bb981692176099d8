import type { ResourceRef } from '../runtime/types'

export const persistentVolumes: ResourceRef = Object.freeze({ group: '', version: 'v1', plural: 'persistentvolumes' })
export const storageClasses: ResourceRef = Object.freeze({ group: 'storage.k8s.io', version: 'v1', plural: 'storageclasses' })

/** The scheduler's choice of node for a claim whose class waits for its first consumer. */
export const SELECTED_NODE_ANNOTATION = 'volume.kubernetes.io/selected-node'
export const BIND_COMPLETED_ANNOTATION = 'pv.kubernetes.io/bind-completed'
export const BOUND_BY_CONTROLLER_ANNOTATION = 'pv.kubernetes.io/bound-by-controller'
export const PROVISIONED_BY_ANNOTATION = 'pv.kubernetes.io/provisioned-by'
export const STORAGE_PROVISIONER_ANNOTATION = 'volume.kubernetes.io/storage-provisioner'
export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class'

/** The provisioner of the local-path class: a directory on the node the pod was scheduled to. */
export const LOCAL_PATH_PROVISIONER = 'edgeplane.io/local-path'
/** The Node annotation in which an agent advertises where its local-path volumes live. */
export const LOCAL_PATH_ROOT_ANNOTATION = 'edgeplane.io/local-path-root'
/** On a local-path volume until its node's agent has removed (or kept) its directory. */
export const LOCAL_PATH_CLEANUP_FINALIZER = 'edgeplane.io/local-path-cleanup'
/** The label naming the node a local-path volume lives on (which lets that node read and finalize it). */
export const LOCAL_PATH_NODE_LABEL = 'edgeplane.io/local-path-node'
