import { forgetWebhookConfigurations } from '../../admission/webhooks/configurations'
import { forgetAdmissionPolicies } from '../../admission/policies/configurations'
import { paramsGuard } from '../admission-policy-writes'
import { requestUser } from '../authentication/user'
import type { KindApi } from './types'

/**
 * A write of a webhook configuration or an admission policy or binding: a policy's or binding's
 * params must be readable by its writer (../admission-policy-writes); any write drops this
 * isolate's configurations, which admission reads.
 */
export const admissionConfigurationsApi: KindApi = {
  async write(req, env, def, _info, serve) {
    try {
      return await serve(req, paramsGuard(env, requestUser(req), def))
    } finally {
      forgetWebhookConfigurations()
      forgetAdmissionPolicies()
    }
  },
}
