import { ApiError, failure } from '../../apimachinery/status'
import { forgetServiceAccounts } from '../authentication/service-account-cache'
import { serveTokenRequest } from '../authentication/token-request'
import type { KindApi } from './types'

export const serviceAccountsApi: KindApi = {
  subresources: {
    // POST serviceaccounts/{name}/token (`kubectl create token`), below the account's namespace.
    token: {
      serve(req, env, _def, namespace, name) {
        if (namespace === undefined)
          throw new ApiError(
            failure(404, 'NotFound', 'the server could not find the requested resource', {}),
          )
        return serveTokenRequest(req, env, namespace, name)
      },
    },
  },
  // Any write of a ServiceAccount drops this isolate's cache of them, which token authentication reads.
  async write(req, _env, _def, _info, serve) {
    try {
      return await serve(req)
    } finally {
      forgetServiceAccounts()
    }
  },
}
