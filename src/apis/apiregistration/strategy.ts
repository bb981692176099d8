/** apiregistration.k8s.io/v1 APIService: its strategy. */
import type { KindStrategy } from '../kind-strategy'
import { defaultApiService, validateApiService, validateApiServiceStatus } from './apiservice'

export const apiServiceStrategy: KindStrategy = {
  defaults: defaultApiService,
  validate: validateApiService,
  validateStatus: validateApiServiceStatus,
}
