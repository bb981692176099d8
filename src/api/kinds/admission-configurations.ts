import { closeHeartbeats } from '../node-heartbeat'
import { forgetWebhookConfigurations } from '../../admission/webhooks/configurations'
import { forgetAdmissionPolicies } from '../../admission/policies/configurations'
import type { KindApi } from './types'

/**
 * Any write of a webhook configuration or an admission policy or binding drops this isolate's
 * configurations, which admission reads, and closes the nodes' heartbeat streams, which skip
 * admission: each agent opens its stream again only while no webhook or policy sees Lease updates.
 */
export const admissionConfigurationsApi: KindApi = {
  async write(req, env, _def, _info, serve) {
    let res: Response | undefined
    try {
      return (res = await serve(req))
    } finally {
      forgetWebhookConfigurations()
      forgetAdmissionPolicies()
      if (res && res.status < 300)
        await closeHeartbeats(env, 1000, 'the admission configuration changed')
    }
  },
}
