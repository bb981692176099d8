/** certificates.k8s.io/v1 CertificateSigningRequest: upstream's csrStrategy, csrStatusStrategy and csrApprovalStrategy. */
import type { KindStrategy } from '../kind-strategy'
import { withStatusOf } from '../status-write'
import { prepareCsrUpdate, stampRequester } from './csr-object'
import { validateCsr, validateCsrUpdate } from './csr-validation'

export const csrStrategy: KindStrategy = {
  validate: validateCsr,
  prepareForCreate: (obj, { requester }) => stampRequester(obj, requester),
  prepareForUpdate: (old, obj) => prepareCsrUpdate(old, obj, undefined),
  validateUpdate: validateCsrUpdate,
  // Both are validated as the whole object, and own the status.
  subresources: {
    status: {
      prepareForUpdate: (old, incoming) =>
        prepareCsrUpdate(old, withStatusOf(old, incoming), 'status'),
      part: 'status',
    },
    approval: {
      prepareForUpdate: (old, incoming) =>
        prepareCsrUpdate(old, withStatusOf(old, incoming), 'approval'),
      part: 'status',
    },
  },
}
