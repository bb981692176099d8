import { forgetCustomResources } from '../../store-client/custom-resources'
import type { KindApi } from './types'

/** Any write of a CustomResourceDefinition drops this isolate's view of the custom resources served. */
export const customResourceDefinitionsApi: KindApi = {
  async write(req, _env, _def, _info, serve) {
    try {
      return await serve(req)
    } finally {
      forgetCustomResources()
    }
  },
}
