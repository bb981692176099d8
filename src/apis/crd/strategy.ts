/** apiextensions.k8s.io/v1 CustomResourceDefinition: its strategy. */
import { formatTime } from '../../apimachinery/meta-time'
import type { KindStrategy } from '../kind-strategy'
import { CLEANUP_FINALIZER, establishedStatus } from './crd-object'
import { validateApiApproval, validateCrd, validateCrdUpdate } from './validate-crd'

export const crdStrategy: KindStrategy = {
  validate: validateCrd,
  // Kept until the definition's objects are gone; established as soon as it is stored.
  prepareForCreate: (obj, { nowMs }) => {
    const meta = obj.metadata
    if (!(meta.finalizers ?? []).includes(CLEANUP_FINALIZER))
      meta.finalizers = [...(meta.finalizers ?? []), CLEANUP_FINALIZER]
    obj.status = establishedStatus(obj, formatTime(nowMs))
  },
  prepareForUpdate: (_old, obj) => {
    obj.status = establishedStatus(obj, formatTime(Date.now()))
    return obj
  },
  validateCreate: (obj) => validateApiApproval(obj),
  validateUpdate: validateCrdUpdate,
}
