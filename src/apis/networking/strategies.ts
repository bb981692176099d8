/** The networking.k8s.io/v1 kinds' strategies, by resource. */
import type { KindStrategy } from '../kind-strategy'
import { defaultNetworkPolicy, notEnforcedWarning, validateNetworkPolicy } from '../network-policy'

export const networkingStrategies: Record<string, KindStrategy> = {
  ingresses: {},
  ingressclasses: {},
  networkpolicies: {
    defaults: defaultNetworkPolicy,
    validate: validateNetworkPolicy,
    warnings: [notEnforcedWarning],
  },
}
