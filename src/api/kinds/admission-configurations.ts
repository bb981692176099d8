import { forgetWebhookConfigurations } from '../../admission/webhooks/configurations'
import { forgetAdmissionPolicies } from '../../admission/policies/configurations'
import type { KindApi } from './types'

/**
 * Any write of a webhook configuration or an admission policy or binding drops this isolate's
 * configurations, which admission reads.
 */
export const admissionConfigurationsApi: KindApi = {
  async write(req, _env, _def, _info, serve) {
    try {
      return await serve(req)
    } finally {
      forgetWebhookConfigurations()
      forgetAdmissionPolicies()
    }
  },
}
