import type { Cache, ControllerDefinition } from '../runtime/types'
import { certificateSigningRequests, reconcileCsr, type SigningSettings } from './reconcile'
import { registerActions } from '../runtime/dispatch'
import { csrSigningActions } from './effects'

// Signing is this controller's own action, performed by the runner as any other.
registerActions(csrSigningActions)

/**
 * The kubernetes.io/kube-apiserver-client signer (kube-controller-manager's csrsigning for that
 * signer name): approved requests get a client certificate from the cluster CA. Requests for any
 * other signer are left for their own signers. Runs only where a cluster CA is configured and the
 * certificates it issues are verified at the API's TLS endpoint (the local launcher's https front,
 * or Cloudflare's edge with EDGEPLANE_CLOUDFLARE_MTLS).
 */
export function csrSigningController(
  settings: SigningSettings & { configured: boolean },
): ControllerDefinition {
  const names = (cache: Cache) =>
    settings.configured
      ? cache.list(certificateSigningRequests).map((c) => c.metadata.name ?? '')
      : []
  return {
    name: 'csr-signing',
    watches: {
      kinds: [certificateSigningRequests],
      keysFor: (_r, o) => (settings.configured ? [o.metadata.name ?? ''] : []),
      allKeys: names,
    },
    reconcile: (key, cache, now) =>
      settings.configured ? reconcileCsr(key, cache, now, settings) : { actions: [] },
  }
}
