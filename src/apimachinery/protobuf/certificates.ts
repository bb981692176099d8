import { ObjectMeta } from './meta'
import { int, list, msg, str, strs, time, type Table } from './schema'

/**
 * certificates.k8s.io/v1 CertificateSigningRequest, which `kubectl certificate approve|deny` sends
 * through the approval subresource. spec.extra (field 6) is left out: the server sets it from the
 * requesting user, whatever a client sends.
 */
export const CertificateSigningRequest: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => ({
    1: { name: 'request', type: 'bytes' },
    7: str('signerName'),
    8: int('expirationSeconds', { keep: true }),
    5: strs('usages'),
    2: str('username'),
    3: str('uid'),
    4: strs('groups'),
  })),
  3: msg('status', () => ({
    1: list('conditions', () => ({
      1: str('type'),
      6: str('status'),
      2: str('reason'),
      3: str('message'),
      4: time('lastUpdateTime'),
      5: time('lastTransitionTime'),
    })),
    2: { name: 'certificate', type: 'bytes' },
  })),
}
