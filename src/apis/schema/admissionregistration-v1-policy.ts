/**
 * Structural schema of admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and
 * ValidatingAdmissionPolicyBinding (k8s.io/api/admissionregistration/v1) as of Kubernetes v1.32.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import {
  ADMISSIONREGISTRATION,
  META,
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

export const admissionregistrationV1Policy: SchemaSet = group(ADMISSIONREGISTRATION, {
  ValidatingAdmissionPolicy: kind(
    'ValidatingAdmissionPolicy describes the definition of an admission validation policy that accepts or rejects an object without changing it.',
    {
      spec: a(
        'ValidatingAdmissionPolicySpec',
        'Specification of the desired behavior of the ValidatingAdmissionPolicy.',
      ),
      status: a(
        'ValidatingAdmissionPolicyStatus',
        'The status of the ValidatingAdmissionPolicy, including warnings that are useful to determine if the policy behaves in the expected way. Populated by the system. Read-only.',
      ),
    },
  ),
  ValidatingAdmissionPolicySpec: struct({
    paramKind: a(
      'ParamKind',
      'ParamKind specifies the kind of resources used to parameterize this policy.',
    ),
    matchConstraints: a(
      'MatchResources',
      'MatchConstraints specifies what resources this policy is designed to validate. Required.',
    ),
    validations: listOf(a('Validation'), {
      listType: 'atomic',
      description: 'Validations contain CEL expressions which is used to apply the validation.',
    }),
    failurePolicy: enumOf(
      ['Fail', 'Ignore'],
      'failurePolicy defines how to handle failures for the admission policy. Allowed values are Ignore or Fail. Defaults to Fail.',
    ),
    auditAnnotations: listOf(a('AuditAnnotation'), {
      listType: 'atomic',
      description:
        'auditAnnotations contains CEL expressions which are used to produce audit annotations for the audit event of the API request.',
    }),
    matchConditions: listOf(a('MatchCondition'), {
      mergeKey: 'name',
      description:
        'MatchConditions is a list of conditions that must be met for a request to be validated.',
    }),
    variables: listOf(a('Variable'), {
      listType: 'atomic',
      description:
        'Variables contain definitions of variables that can be used in composition of other expressions.',
    }),
  }),
  ValidatingAdmissionPolicyStatus: struct({
    observedGeneration: int('The generation observed by the controller.'),
    typeChecking: a(
      'TypeChecking',
      'The results of type checking for each expression. Presence of this field indicates the completion of the type checking.',
    ),
    conditions: listOf(ref(META + 'Condition'), {
      mergeKey: 'type',
      description:
        "The conditions represent the latest available observations of a policy's current state.",
    }),
  }),
  TypeChecking: struct({
    expressionWarnings: listOf(a('ExpressionWarning'), {
      listType: 'atomic',
      description: 'The type checking warnings for each expression.',
    }),
  }),
  ExpressionWarning: struct({
    fieldRef: required(str('The path to the field that refers the expression.')),
    warning: required(str('The content of type checking information in a human-readable form.')),
  }),
  ParamKind: struct({
    apiVersion: str(
      'APIVersion is the API group version the resources belong to. In format of "group/version". Required.',
    ),
    kind: str('Kind is the API kind the resources belong to. Required.'),
  }),
  MatchResources: struct({
    namespaceSelector: ref(
      META + 'LabelSelector',
      'NamespaceSelector decides whether to run the admission control policy on an object based on whether the namespace for that object matches the selector.',
    ),
    objectSelector: ref(
      META + 'LabelSelector',
      'ObjectSelector decides whether to run the validation based on if the object has matching labels.',
    ),
    resourceRules: listOf(a('NamedRuleWithOperations'), {
      listType: 'atomic',
      description:
        'ResourceRules describes what operations on what resources/subresources the ValidatingAdmissionPolicy matches.',
    }),
    excludeResourceRules: listOf(a('NamedRuleWithOperations'), {
      listType: 'atomic',
      description:
        'ExcludeResourceRules describes what operations on what resources/subresources the ValidatingAdmissionPolicy should not care about.',
    }),
    matchPolicy: enumOf(
      ['Exact', 'Equivalent'],
      'matchPolicy defines how the "MatchResources" list is used to match incoming requests. Defaults to "Equivalent"',
    ),
  }),
  NamedRuleWithOperations: struct({
    resourceNames: strings(
      'ResourceNames is an optional white list of names that the rule applies to. An empty set means that everything is allowed.',
    ),
    operations: strings(
      'Operations is the operations the admission hook cares about - CREATE, UPDATE, DELETE, CONNECT or * for all of those operations.',
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
  Validation: struct({
    expression: required(
      str('Expression represents the expression which will be evaluated by CEL.'),
    ),
    message: str('Message represents the message displayed when validation fails.'),
    reason: str(
      'Reason represents a machine-readable description of why this validation failed. If not set, StatusReasonInvalid is used in the response to the client.',
    ),
    messageExpression: str(
      'messageExpression declares a CEL expression that evaluates to the validation failure message that is returned when this rule fails.',
    ),
  }),
  AuditAnnotation: struct({
    key: required(str('key specifies the audit annotation key.')),
    valueExpression: required(
      str(
        'valueExpression represents the expression which is evaluated by CEL to produce an audit annotation value.',
      ),
    ),
  }),
  Variable: struct({
    name: required(
      str(
        'Name is the name of the variable. The name must be a valid CEL identifier and unique among all variables.',
      ),
    ),
    expression: required(
      str('Expression is the expression that will be evaluated as the value of the variable.'),
    ),
  }),
  ValidatingAdmissionPolicyBinding: kind(
    'ValidatingAdmissionPolicyBinding binds the ValidatingAdmissionPolicy with paramerized resources.',
    {
      spec: a(
        'ValidatingAdmissionPolicyBindingSpec',
        'Specification of the desired behavior of the ValidatingAdmissionPolicyBinding.',
      ),
    },
  ),
  ValidatingAdmissionPolicyBindingSpec: struct({
    policyName: str(
      'PolicyName references a ValidatingAdmissionPolicy name which the ValidatingAdmissionPolicyBinding binds to. Required.',
    ),
    paramRef: a(
      'ParamRef',
      'paramRef specifies the parameter resource used to configure the admission control policy.',
    ),
    matchResources: a(
      'MatchResources',
      'MatchResources declares what resources match this binding and will be validated by it.',
    ),
    validationActions: listOf(enumOf(['Audit', 'Deny', 'Warn']), {
      listType: 'set',
      description:
        'validationActions declares how Validations of the referenced ValidatingAdmissionPolicy are enforced. Required.',
    }),
  }),
  ParamRef: struct({
    name: str('name is the name of the resource being referenced.'),
    namespace: str('namespace is the namespace of the referenced resource.'),
    selector: ref(
      META + 'LabelSelector',
      'selector can be used to match multiple param objects based on their labels.',
    ),
    parameterNotFoundAction: enumOf(
      ['Allow', 'Deny'],
      '`parameterNotFoundAction` controls the behavior of the binding when the resource exists, and name or selector is valid, but there are no parameters matched by the binding. Default to `Deny`.',
    ),
  }),
})
