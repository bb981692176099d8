/** The admissionregistration.k8s.io/v1 kinds' strategies, by resource. */
import type { KindStrategy } from '../kind-strategy'
import {
  bindingKind,
  defaultAdmissionPolicyObject,
  policyKind,
  validateAdmissionPolicyObject,
} from './admission-policy'
import { defaultWebhookConfiguration, validateWebhookConfiguration } from './webhook-configuration'

const webhookConfigurationStrategy = (kind: string): KindStrategy => ({
  defaults: (obj) => defaultWebhookConfiguration(kind, obj),
  validate: (obj) => validateWebhookConfiguration(kind, obj),
})

const admissionPolicyStrategy = (kind: string): KindStrategy => ({
  defaults: (obj) => defaultAdmissionPolicyObject(kind, obj),
  validate: (obj) => validateAdmissionPolicyObject(kind, obj),
})

export const admissionregistrationStrategies: Record<string, KindStrategy> = {
  mutatingwebhookconfigurations: webhookConfigurationStrategy('MutatingWebhookConfiguration'),
  validatingwebhookconfigurations: webhookConfigurationStrategy('ValidatingWebhookConfiguration'),
  validatingadmissionpolicies: admissionPolicyStrategy(policyKind),
  validatingadmissionpolicybindings: admissionPolicyStrategy(bindingKind),
}
