/** Structural schema of rbac.authorization.k8s.io/v1 (k8s.io/api/rbac/v1) as of Kubernetes v1.32. */
import type { SchemaSet } from '../../apimachinery/schema-types'
import { META, RBAC, group, kind, listOf, ref, required, str, struct } from './dsl'

const strings = (description: string) => listOf(str(), description)

export const rbacV1: SchemaSet = group(RBAC, {
  Role: kind(
    'Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.',
    {
      rules: listOf(ref(RBAC + 'PolicyRule'), 'Rules holds all the PolicyRules for this Role'),
    },
  ),
  ClusterRole: kind(
    'ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.',
    {
      rules: listOf(
        ref(RBAC + 'PolicyRule'),
        'Rules holds all the PolicyRules for this ClusterRole',
      ),
      aggregationRule: ref(
        RBAC + 'AggregationRule',
        'AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller.',
      ),
    },
  ),
  RoleBinding: kind(
    'RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given namespace only have effect in that namespace.',
    {
      subjects: listOf(
        ref(RBAC + 'Subject'),
        'Subjects holds references to the objects the role applies to.',
      ),
      roleRef: required(
        ref(
          RBAC + 'RoleRef',
          'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.',
        ),
      ),
    },
  ),
  ClusterRoleBinding: kind(
    'ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.',
    {
      subjects: listOf(
        ref(RBAC + 'Subject'),
        'Subjects holds references to the objects the role applies to.',
      ),
      roleRef: required(
        ref(
          RBAC + 'RoleRef',
          'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.',
        ),
      ),
    },
  ),
  PolicyRule: struct(
    {
      verbs: required(
        strings(
          "Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs.",
        ),
      ),
      apiGroups: strings(
        'APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.',
      ),
      resources: strings(
        "Resources is a list of resources this rule applies to. '*' represents all resources.",
      ),
      resourceNames: strings(
        'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.',
      ),
      nonResourceURLs: strings(
        'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path. Rules can either apply to API resources (such as "pods" or "secrets") or non-resource URL paths (such as "/api"),  but not both.',
      ),
    },
    'PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.',
  ),
  AggregationRule: struct(
    {
      clusterRoleSelectors: listOf(
        ref(META + 'LabelSelector'),
        "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added",
      ),
    },
    'AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole',
  ),
  Subject: struct(
    {
      kind: required(
        str(
          'Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount".',
        ),
      ),
      apiGroup: str(
        'APIGroup holds the API group of the referenced subject. Defaults to "" for ServiceAccount subjects. Defaults to "rbac.authorization.k8s.io" for User and Group subjects.',
      ),
      name: required(str('Name of the object being referenced.')),
      namespace: str(
        'Namespace of the referenced object.  If the object kind is non-namespace, such as "User" or "Group", and this value is not empty the Authorizer should report an error.',
      ),
    },
    'Subject contains a reference to the object or user identities a role binding applies to.',
  ),
  RoleRef: struct(
    {
      apiGroup: required(str('APIGroup is the group for the resource being referenced')),
      kind: required(str('Kind is the type of resource being referenced')),
      name: required(str('Name is the name of resource being referenced')),
    },
    'RoleRef contains information that points to the role being used',
  ),
})
