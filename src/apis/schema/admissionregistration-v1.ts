/**
 * Structural schema of admissionregistration.k8s.io/v1 MutatingWebhookConfiguration and
 * ValidatingWebhookConfiguration (k8s.io/api/admissionregistration/v1) as of Kubernetes v1.32.
 */
import type { FieldDef, SchemaSet } from '../../apimachinery/schema-types'
import {
  ADMISSIONREGISTRATION,
  META,
  bytes,
  enumOf,
  group,
  int,
  kind,
  listOf,
  ref,
  required,
  str,
  struct,
} from './dsl'

const a = (name: string, description?: string) => ref(ADMISSIONREGISTRATION + name, description)
const strings = (description: string) => listOf(str(), description)

/** The fields Mutating and Validating webhooks share. */
const webhookFields = (): Record<string, FieldDef> => ({
  name: required(
    str(
      'The name of the admission webhook. Name should be fully qualified, e.g., imagepolicy.kubernetes.io.',
    ),
  ),
  clientConfig: required(
    a('WebhookClientConfig', 'ClientConfig defines how to communicate with the hook.'),
  ),
  rules: listOf(
    a('RuleWithOperations'),
    'Rules describes what operations on what resources/subresources the webhook cares about.',
  ),
  failurePolicy: enumOf(
    ['Fail', 'Ignore'],
    'FailurePolicy defines how unrecognized errors from the admission endpoint are handled. Defaults to Fail.',
  ),
  matchPolicy: enumOf(
    ['Exact', 'Equivalent'],
    'matchPolicy defines how the "rules" list is used to match incoming requests. Defaults to "Equivalent"',
  ),
  namespaceSelector: ref(
    META + 'LabelSelector',
    'NamespaceSelector decides whether to run the webhook on an object based on whether the namespace for that object matches the selector.',
  ),
  objectSelector: ref(
    META + 'LabelSelector',
    'ObjectSelector decides whether to run the webhook based on if the object has matching labels.',
  ),
  sideEffects: required(
    enumOf(
      ['None', 'NoneOnDryRun', 'Some', 'Unknown'],
      'SideEffects states whether this webhook has side effects. Acceptable values are: None, NoneOnDryRun.',
    ),
  ),
  timeoutSeconds: int(
    'TimeoutSeconds specifies the timeout for this webhook. The timeout value must be between 1 and 30 seconds. Default to 10 seconds.',
  ),
  admissionReviewVersions: required(
    strings(
      'AdmissionReviewVersions is an ordered list of preferred `AdmissionReview` versions the Webhook expects.',
    ),
  ),
  matchConditions: listOf(a('MatchCondition'), {
    mergeKey: 'name',
    description:
      'MatchConditions is a list of conditions that must be met for a request to be sent to this webhook.',
  }),
})

export const admissionregistrationV1: SchemaSet = group(ADMISSIONREGISTRATION, {
  MutatingWebhookConfiguration: kind(
    'MutatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and may change the object.',
    {
      webhooks: listOf(a('MutatingWebhook'), {
        mergeKey: 'name',
        description: 'Webhooks is a list of webhooks and the affected resources and operations.',
      }),
    },
  ),
  ValidatingWebhookConfiguration: kind(
    'ValidatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and object without changing it.',
    {
      webhooks: listOf(a('ValidatingWebhook'), {
        mergeKey: 'name',
        description: 'Webhooks is a list of webhooks and the affected resources and operations.',
      }),
    },
  ),
  MutatingWebhook: struct({
    ...webhookFields(),
    reinvocationPolicy: enumOf(
      ['Never', 'IfNeeded'],
      'reinvocationPolicy indicates whether this webhook should be called multiple times as part of a single admission evaluation. Defaults to "Never".',
    ),
  }),
  ValidatingWebhook: struct(webhookFields()),
  WebhookClientConfig: struct({
    url: str(
      '`url` gives the location of the webhook, in standard URL form (`scheme://host:port/path`). Exactly one of `url` or `service` must be specified.',
    ),
    service: a(
      'ServiceReference',
      '`service` is a reference to the service for this webhook. Either `service` or `url` must be specified.',
    ),
    caBundle: bytes(
      "`caBundle` is a PEM encoded CA bundle which will be used to validate the webhook's server certificate.",
    ),
  }),
  ServiceReference: struct({
    namespace: required(str('`namespace` is the namespace of the service.')),
    name: required(str('`name` is the name of the service.')),
    path: str('`path` is an optional URL path which will be sent in any request to this service.'),
    port: int(
      'If specified, the port on the service that hosting webhook. Default to 443 for backward compatibility.',
    ),
  }),
  RuleWithOperations: struct({
    operations: strings(
      'Operations is the operations the admission hook cares about - CREATE, UPDATE, DELETE, CONNECT or * for all of those operations and any future admission operations that are added.',
    ),
    apiGroups: strings("APIGroups is the API groups the resources belong to. '*' is all groups."),
    apiVersions: strings(
      "APIVersions is the API versions the resources belong to. '*' is all versions.",
    ),
    resources: strings('Resources is a list of resources this rule applies to.'),
    scope: enumOf(
      ['Cluster', 'Namespaced', '*'],
      'scope specifies the scope of this rule. Default is "*".',
    ),
  }),
  MatchCondition: struct({
    name: required(
      str(
        'Name is an identifier for this match condition, used for strategic merging of MatchConditions, as well as providing an identifier for logging purposes.',
      ),
    ),
    expression: required(
      str(
        'Expression represents the expression which will be evaluated by CEL. Must evaluate to bool.',
      ),
    ),
  }),
})
