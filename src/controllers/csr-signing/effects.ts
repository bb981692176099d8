import type { KubeObject } from '../../apimachinery/types'
import type { ActionHandlers } from '../runtime/action-context'
import { clusterOf } from '../runtime/dispatch'
import { controllerUser } from '../runtime/identity'
import { record } from '../runtime/object-writes'
import type { ResourceRef } from '../runtime/types'
import { written } from '../runtime/written'
import { resourceDefOf } from '../resources'
import { signedStatus } from './issue'
import { certificateSigningRequests } from './reconcile'

declare module '../runtime/actions' {
  interface Actions {
    /** signs an approved CertificateSigningRequest with the cluster CA and writes the certificate through `status` */
    issueCertificate: {
      type: 'issueCertificate'
      resource: ResourceRef
      csr: KubeObject
      notBefore: number
      notAfter: number
    }
  }
}

/** The signer's own action: a certificate signed with the cluster CA, written to the request's status. */
export const csrSigningActions: ActionHandlers = {
  async issueCertificate(action, ctx, now) {
    const def = resourceDefOf(certificateSigningRequests)
    const o = await signedStatus(
      clusterOf(ctx, 'signing certificates'),
      action.csr,
      action.notBefore,
      action.notAfter,
      now,
    )
    const res = await ctx.stores
      .admitted(def, controllerUser(ctx.controller))
      .update({ def, name: o.metadata.name ?? '' }, o, 'status', {})
    record(ctx.caches, certificateSigningRequests, written(res))
  },
}
