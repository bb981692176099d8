/**
 * Structural schema of flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration
 * (k8s.io/api/flowcontrol/v1) as of Kubernetes v1.32.
 */
import type { SchemaSet } from '../../apimachinery/schema-types'
import { bool, group, int, kind, listOf, ref, required, str, struct, time } from './dsl'

export const FLOWCONTROL = 'io.k8s.api.flowcontrol.v1.'

const set = (description: string) => listOf(str(), { listType: 'set', description })
const condition = (description: string) =>
  struct(
    {
      type: str('`type` is the type of the condition. Required.'),
      status: str(
        '`status` is the status of the condition. Can be True, False, Unknown. Required.',
      ),
      lastTransitionTime: time(
        '`lastTransitionTime` is the last time the condition transitioned from one status to another.',
      ),
      reason: str(
        "`reason` is a unique, one-word, CamelCase reason for the condition's last transition.",
      ),
      message: str(
        '`message` is a human-readable message indicating details about last transition.',
      ),
    },
    description,
  )
const conditions = (item: string, description: string) =>
  listOf(ref(FLOWCONTROL + item), { mergeKey: 'type', mapKeys: ['type'], description })

export const flowcontrolV1: SchemaSet = group(FLOWCONTROL, {
  FlowSchema: kind(
    'FlowSchema defines the schema of a group of flows. Note that a flow is made up of a set of inbound API requests with similar attributes and is identified by a pair of strings: the name of the FlowSchema and a "flow distinguisher".',
    {
      spec: ref(
        FLOWCONTROL + 'FlowSchemaSpec',
        '`spec` is the specification of the desired behavior of a FlowSchema. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
      ),
      status: ref(
        FLOWCONTROL + 'FlowSchemaStatus',
        '`status` is the current status of a FlowSchema. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
      ),
    },
  ),
  FlowSchemaSpec: struct(
    {
      priorityLevelConfiguration: required(
        ref(
          FLOWCONTROL + 'PriorityLevelConfigurationReference',
          '`priorityLevelConfiguration` should reference a PriorityLevelConfiguration in the cluster. If the reference cannot be resolved, the FlowSchema will be ignored and marked as invalid in its status. Required.',
        ),
      ),
      matchingPrecedence: int(
        '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.',
      ),
      distinguisherMethod: ref(
        FLOWCONTROL + 'FlowDistinguisherMethod',
        '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.',
      ),
      rules: listOf(ref(FLOWCONTROL + 'PolicyRulesWithSubjects'), {
        listType: 'atomic',
        description:
          '`rules` describes which requests will match this flow schema. This FlowSchema matches a request if and only if at least one member of rules matches the request. if it is an empty slice, there will be no requests matching the FlowSchema.',
      }),
    },
    "FlowSchemaSpec describes how the FlowSchema's specification looks like.",
  ),
  FlowDistinguisherMethod: struct(
    {
      type: required(
        str(
          '`type` is the type of flow distinguisher method The supported types are "ByUser" and "ByNamespace". Required.',
        ),
      ),
    },
    'FlowDistinguisherMethod specifies the method of a flow distinguisher.',
  ),
  PriorityLevelConfigurationReference: struct(
    {
      name: required(
        str('`name` is the name of the priority level configuration being referenced Required.'),
      ),
    },
    'PriorityLevelConfigurationReference contains information that points to the "request-priority" being used.',
  ),
  PolicyRulesWithSubjects: struct(
    {
      subjects: required(
        listOf(ref(FLOWCONTROL + 'Subject'), {
          listType: 'atomic',
          description:
            'subjects is the list of normal user, serviceaccount, or group that this rule cares about. There must be at least one member in this slice. A slice that includes both the system:authenticated and system:unauthenticated user groups matches every request. Required.',
        }),
      ),
      resourceRules: listOf(ref(FLOWCONTROL + 'ResourcePolicyRule'), {
        listType: 'atomic',
        description:
          '`resourceRules` is a slice of ResourcePolicyRules that identify matching requests according to their verb and the target resource. At least one of `resourceRules` and `nonResourceRules` has to be non-empty.',
      }),
      nonResourceRules: listOf(ref(FLOWCONTROL + 'NonResourcePolicyRule'), {
        listType: 'atomic',
        description:
          '`nonResourceRules` is a list of NonResourcePolicyRules that identify matching requests according to their verb and the target non-resource URL.',
      }),
    },
    'PolicyRulesWithSubjects prescribes a test that applies to a request to an apiserver. The test considers the subject making the request, the verb being requested, and the resource to be acted upon. This PolicyRulesWithSubjects matches a request if and only if both (a) at least one member of subjects matches the request and (b) at least one member of resourceRules or nonResourceRules matches the request.',
  ),
  Subject: struct(
    {
      kind: required(str('`kind` indicates which one of the other fields is non-empty. Required')),
      user: ref(FLOWCONTROL + 'UserSubject', '`user` matches based on username.'),
      group: ref(FLOWCONTROL + 'GroupSubject', '`group` matches based on user group name.'),
      serviceAccount: ref(
        FLOWCONTROL + 'ServiceAccountSubject',
        '`serviceAccount` matches ServiceAccounts.',
      ),
    },
    'Subject matches the originator of a request, as identified by the request authentication system. There are three ways of matching an originator; by user, group, or service account.',
  ),
  UserSubject: struct(
    {
      name: required(
        str('`name` is the username that matches, or "*" to match all usernames. Required.'),
      ),
    },
    'UserSubject holds detailed information for user-kind subject.',
  ),
  GroupSubject: struct(
    {
      name: required(
        str(
          'name is the user group that matches, or "*" to match all user groups. See https://github.com/kubernetes/apiserver/blob/master/pkg/authentication/user/user.go for some well-known group names. Required.',
        ),
      ),
    },
    'GroupSubject holds detailed information for group-kind subject.',
  ),
  ServiceAccountSubject: struct(
    {
      namespace: required(
        str('`namespace` is the namespace of matching ServiceAccount objects. Required.'),
      ),
      name: required(
        str(
          '`name` is the name of matching ServiceAccount objects, or "*" to match regardless of name. Required.',
        ),
      ),
    },
    'ServiceAccountSubject holds detailed information for service-account-kind subject.',
  ),
  ResourcePolicyRule: struct(
    {
      verbs: required(
        set(
          '`verbs` is a list of matching verbs and may not be empty. "*" matches all verbs and, if present, must be the only entry. Required.',
        ),
      ),
      apiGroups: required(
        set(
          '`apiGroups` is a list of matching API groups and may not be empty. "*" matches all API groups and, if present, must be the only entry. Required.',
        ),
      ),
      resources: required(
        set(
          '`resources` is a list of matching resources (i.e., lowercase and plural) with, if desired, subresource.  For example, [ "services", "nodes/status" ].  This list may not be empty. "*" matches all resources and, if present, must be the only entry. Required.',
        ),
      ),
      clusterScope: bool(
        '`clusterScope` indicates whether to match requests that do not specify a namespace (which happens either because the resource is not namespaced or the request targets all namespaces). If this field is omitted or false then the `namespaces` field must contain a non-empty list.',
      ),
      namespaces: set(
        '`namespaces` is a list of target namespaces that restricts matches.  A request that specifies a target namespace matches only if either (a) this list contains that target namespace or (b) this list contains "*".  Note that "*" matches any specified namespace but does not match a request that _does not specify_ a namespace (see the `clusterScope` field for that). This list may be empty, but only if `clusterScope` is true.',
      ),
    },
    'ResourcePolicyRule is a predicate that matches some resource requests, testing the request\'s verb and the target resource. A ResourcePolicyRule matches a resource request if and only if: (a) at least one member of verbs matches the request, (b) at least one member of apiGroups matches the request, (c) at least one member of resources matches the request, and (d) either (d1) the request does not specify a namespace (i.e., `Namespace==""`) and clusterScope is true or (d2) the request specifies a namespace and least one member of namespaces matches the request\'s namespace.',
  ),
  NonResourcePolicyRule: struct(
    {
      verbs: required(
        set(
          '`verbs` is a list of matching verbs and may not be empty. "*" matches all verbs. If it is present, it must be the only entry. Required.',
        ),
      ),
      nonResourceURLs: required(
        set(
          '`nonResourceURLs` is a set of url prefixes that a user should have access to and may not be empty. For example:\n  - "/healthz" is legal\n  - "/hea*" is illegal\n  - "/hea" is legal but matches nothing\n  - "/hea/*" also matches nothing\n  - "/healthz/*" matches all per-component health checks.\n"*" matches all non-resource urls. if it is present, it must be the only entry. Required.',
        ),
      ),
    },
    'NonResourcePolicyRule is a predicate that matches non-resource requests according to their verb and the target non-resource URL. A NonResourcePolicyRule matches a request if and only if both (a) at least one member of verbs matches the request and (b) at least one member of nonResourceURLs matches the request.',
  ),
  FlowSchemaStatus: struct(
    {
      conditions: conditions(
        'FlowSchemaCondition',
        '`conditions` is a list of the current states of FlowSchema.',
      ),
    },
    'FlowSchemaStatus represents the current state of a FlowSchema.',
  ),
  FlowSchemaCondition: condition('FlowSchemaCondition describes conditions for a FlowSchema.'),
  PriorityLevelConfiguration: kind(
    'PriorityLevelConfiguration represents the configuration of a priority level.',
    {
      spec: ref(
        FLOWCONTROL + 'PriorityLevelConfigurationSpec',
        '`spec` is the specification of the desired behavior of a "request-priority". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
      ),
      status: ref(
        FLOWCONTROL + 'PriorityLevelConfigurationStatus',
        '`status` is the current status of a "request-priority". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
      ),
    },
  ),
  PriorityLevelConfigurationSpec: struct(
    {
      type: required(
        str(
          '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.',
        ),
      ),
      limited: ref(
        FLOWCONTROL + 'LimitedPriorityLevelConfiguration',
        '`limited` specifies how requests are handled for a Limited priority level. This field must be non-empty if and only if `type` is `"Limited"`.',
      ),
      exempt: ref(
        FLOWCONTROL + 'ExemptPriorityLevelConfiguration',
        '`exempt` specifies how requests are handled for an exempt priority level. This field MUST be empty if `type` is `"Limited"`. This field MAY be non-empty if `type` is `"Exempt"`. If empty and `type` is `"Exempt"` then the default values for `ExemptPriorityLevelConfiguration` apply.',
      ),
    },
    'PriorityLevelConfigurationSpec specifies the configuration of a priority level.',
  ),
  LimitedPriorityLevelConfiguration: struct(
    {
      nominalConcurrencyShares: int(
        '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server\'s concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a "jail" for this priority level that is used to hold some request(s)',
      ),
      limitResponse: ref(
        FLOWCONTROL + 'LimitResponse',
        '`limitResponse` indicates what to do with requests that can not be executed right now',
      ),
      lendablePercent: int(
        "`lendablePercent` prescribes the fraction of the level's NominalCL that can be borrowed by other priority levels. The value of this field must be between 0 and 100, inclusive, and it defaults to 0. The number of seats that other levels can borrow from this level, known as this level's LendableConcurrencyLimit (LendableCL), is defined as follows.\n\nLendableCL(i) = round( NominalCL(i) * lendablePercent(i)/100.0 )",
      ),
      borrowingLimitPercent: int(
        "`borrowingLimitPercent`, if present, configures a limit on how many seats this priority level can borrow from other priority levels. The limit is known as this level's BorrowingConcurrencyLimit (BorrowingCL) and is a limit on the total number of seats that this level may borrow at any one time. This field holds the ratio of that limit to the level's nominal concurrency limit. When this field is non-nil, it must hold a non-negative integer and the limit is calculated as follows.\n\nBorrowingCL(i) = round( NominalCL(i) * borrowingLimitPercent(i)/100.0 )\n\nThe value of this field can be more than 100, implying that this priority level can borrow a number of seats that is greater than its own nominal concurrency limit (NominalCL). When this field is left `nil`, the limit is effectively infinite.",
      ),
    },
    'LimitedPriorityLevelConfiguration specifies how to handle requests that are subject to limits. It addresses two issues:\n  - How are requests for this priority level limited?\n  - What should be done with requests that exceed the limit?',
  ),
  ExemptPriorityLevelConfiguration: struct(
    {
      nominalConcurrencyShares: int(
        "`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats nominally reserved for this priority level. This DOES NOT limit the dispatching from this priority level but affects the other priority levels through the borrowing mechanism. The server's concurrency limit (ServerCL) is divided among all the priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level. This field has a default value of zero.",
      ),
      lendablePercent: int(
        "`lendablePercent` prescribes the fraction of the level's NominalCL that can be borrowed by other priority levels.  This value of this field must be between 0 and 100, inclusive, and it defaults to 0. The number of seats that other levels can borrow from this level, known as this level's LendableConcurrencyLimit (LendableCL), is defined as follows.\n\nLendableCL(i) = round( NominalCL(i) * lendablePercent(i)/100.0 )",
      ),
    },
    'ExemptPriorityLevelConfiguration describes the configurable aspects of the handling of exempt requests. In the mandatory exempt configuration object the values in the fields here can be modified by authorized users, unlike the rest of the `spec`.',
  ),
  LimitResponse: struct(
    {
      type: required(
        str(
          '`type` is "Queue" or "Reject". "Queue" means that requests that can not be executed upon arrival are held in a queue until they can be executed or a queuing limit is reached. "Reject" means that requests that can not be executed upon arrival are rejected. Required.',
        ),
      ),
      queuing: ref(
        FLOWCONTROL + 'QueuingConfiguration',
        '`queuing` holds the configuration parameters for queuing. This field may be non-empty only if `type` is `"Queue"`.',
      ),
    },
    'LimitResponse defines how to handle requests that can not be executed right now.',
  ),
  QueuingConfiguration: struct(
    {
      queues: int(
        '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.',
      ),
      handSize: int(
        "`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request's flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.",
      ),
      queueLengthLimit: int(
        '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.',
      ),
    },
    'QueuingConfiguration holds the configuration parameters for queuing',
  ),
  PriorityLevelConfigurationStatus: struct(
    {
      conditions: conditions(
        'PriorityLevelConfigurationCondition',
        '`conditions` is the current state of "request-priority".',
      ),
    },
    'PriorityLevelConfigurationStatus represents the current state of a "request-priority".',
  ),
  PriorityLevelConfigurationCondition: condition(
    'PriorityLevelConfigurationCondition defines the condition of priority level.',
  ),
})
