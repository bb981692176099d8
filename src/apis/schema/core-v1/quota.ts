/**
 * Structural schema of the core/v1 kinds that bound a namespace's consumption (k8s.io/api/core/v1):
 * ResourceQuota and LimitRange.
 */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, enumOf, group, kind, listOf, required, str, struct } from '../dsl'
import { c, quantities } from './shorthands'

export const coreV1Quota: SchemaSet = group(CORE, {
  ResourceQuota: kind('ResourceQuota sets aggregate quota restrictions enforced per namespace', {
    spec: c('ResourceQuotaSpec', 'Spec defines the desired quota.'),
    status: c(
      'ResourceQuotaStatus',
      'Status defines the actual enforced quota and its current usage.',
    ),
  }),
  ResourceQuotaSpec: struct({
    hard: quantities('hard is the set of desired hard limits for each named resource.'),
    scopes: listOf(
      enumOf([
        'Terminating',
        'NotTerminating',
        'BestEffort',
        'NotBestEffort',
        'PriorityClass',
        'CrossNamespacePodAffinity',
      ]),
      'A collection of filters that must match each object tracked by a quota.',
    ),
    scopeSelector: c(
      'ScopeSelector',
      'scopeSelector is also a collection of filters like scopes that must match each object tracked by a quota but expressed using ScopeSelectorOperator in combination with possible values.',
    ),
  }),
  ScopeSelector: struct({
    matchExpressions: listOf(
      c('ScopedResourceSelectorRequirement'),
      'A list of scope selector requirements by scope of the resources.',
    ),
  }),
  ScopedResourceSelectorRequirement: struct({
    scopeName: required(str('The name of the scope that the selector applies to.')),
    operator: required(
      enumOf(
        ['In', 'NotIn', 'Exists', 'DoesNotExist'],
        "Represents a scope's relationship to a set of values.",
      ),
    ),
    values: listOf(str(), 'An array of string values.'),
  }),
  ResourceQuotaStatus: struct({
    hard: quantities('Hard is the set of enforced hard limits for each named resource.'),
    used: quantities('Used is the current observed total usage of the resource in the namespace.'),
  }),
  LimitRange: kind(
    'LimitRange sets resource usage limits for each kind of resource in a Namespace.',
    {
      spec: c('LimitRangeSpec', 'Spec defines the limits enforced.'),
    },
  ),
  LimitRangeSpec: struct({
    limits: required(
      listOf(
        c('LimitRangeItem'),
        'Limits is the list of LimitRangeItem objects that are enforced.',
      ),
    ),
  }),
  LimitRangeItem: struct({
    type: required(str('Type of resource that this limit applies to.')),
    max: quantities('Max usage constraints on this kind by resource name.'),
    min: quantities('Min usage constraints on this kind by resource name.'),
    default: quantities(
      'Default resource requirement limit value by resource name if resource limit is omitted.',
    ),
    defaultRequest: quantities(
      'DefaultRequest is the default resource requirement request value by resource name if resource request is omitted.',
    ),
    maxLimitRequestRatio: quantities(
      'MaxLimitRequestRatio if specified, the named resource must have a request and limit that are both non-zero where limit divided by request is less than or equal to the enumerated value; this represents the max burst for the named resource.',
    ),
  }),
})
