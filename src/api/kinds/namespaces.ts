import type { KindApi } from './types'

/** PUT namespaces/{name}/finalize: the namespace's spec.finalizers written (the namespace's strategy); nothing else is served there. */
export const namespacesApi: KindApi = {
  subresources: { finalize: { methods: ['PUT'], otherwise: 'NotFound' } },
}
