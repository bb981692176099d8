import type { ResourceDef } from '../resource-def'

export const admissionGroup = 'admissionregistration.k8s.io'

/**
 * The groups that extend and guard the API (apiextensions, apiregistration, certificates,
 * admissionregistration, flowcontrol), in discovery order.
 */
export const extensionResources: ResourceDef[] = [
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: ['status'],
    generation: true,
  },
  {
    group: 'apiregistration.k8s.io',
    version: 'v1',
    kind: 'APIService',
    plural: 'apiservices',
    singular: 'apiservice',
    namespaced: false,
    categories: ['api-extensions'],
    subresources: ['status'],
  },
  {
    group: 'certificates.k8s.io',
    version: 'v1',
    kind: 'CertificateSigningRequest',
    plural: 'certificatesigningrequests',
    singular: 'certificatesigningrequest',
    namespaced: false,
    shortNames: ['csr'],
    subresources: ['status', 'approval'],
  },
  webhookConfiguration('MutatingWebhookConfiguration'),
  webhookConfiguration('ValidatingWebhookConfiguration'),
  {
    group: admissionGroup,
    version: 'v1',
    kind: 'ValidatingAdmissionPolicy',
    plural: 'validatingadmissionpolicies',
    singular: 'validatingadmissionpolicy',
    namespaced: false,
    categories: ['api-extensions'],
    subresources: ['status'],
    generation: true,
  },
  {
    group: admissionGroup,
    version: 'v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    plural: 'validatingadmissionpolicybindings',
    singular: 'validatingadmissionpolicybinding',
    namespaced: false,
    categories: ['api-extensions'],
    subresources: [],
    generation: true,
  },
  {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1',
    kind: 'FlowSchema',
    plural: 'flowschemas',
    singular: 'flowschema',
    namespaced: false,
    subresources: ['status'],
    generation: true,
  },
  {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1',
    kind: 'PriorityLevelConfiguration',
    plural: 'prioritylevelconfigurations',
    singular: 'prioritylevelconfiguration',
    namespaced: false,
    subresources: ['status'],
    generation: true,
  },
]

/** An admissionregistration.k8s.io/v1 webhook configuration. */
function webhookConfiguration(kind: string): ResourceDef {
  const singular = kind.toLowerCase()
  return {
    group: admissionGroup,
    version: 'v1',
    kind,
    plural: `${singular}s`,
    singular,
    namespaced: false,
    categories: ['api-extensions'],
    subresources: [],
    generation: true,
  }
}
