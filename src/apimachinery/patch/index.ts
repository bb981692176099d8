/** The three PATCH body types kube-apiserver accepts besides server-side apply. */
export { applyMergePatch } from './merge-patch'
export { applyJsonPatch } from './json-patch'
export { applyStrategicMergePatch } from './strategic-merge'
export { PatchError, type PatchErrorCode } from './patch-error'
