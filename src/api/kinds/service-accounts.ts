import { forgetServiceAccounts } from '../service-account-cache'
import type { KindApi } from './types'

/** Any write of a ServiceAccount drops this isolate's cache of them, which token authentication reads. */
export const serviceAccountsApi: KindApi = {
  async write(req, _env, _def, _info, serve) {
    try {
      return await serve(req)
    } finally {
      forgetServiceAccounts()
    }
  },
}
