/** The Namespace kind of core/v1 and its status. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, enumOf, group, kind, listOf, required, str, struct, time } from '../dsl'
import { CONDITION_STATUS, c, strings } from './shorthands'

export const coreV1Namespace: SchemaSet = group(CORE, {
  Namespace: kind('Namespace provides a scope for Names. Use of multiple namespaces is optional.', {
    spec: c('NamespaceSpec', 'Spec defines the behavior of the Namespace.'),
    status: c('NamespaceStatus', 'Status describes the current status of a Namespace.'),
  }),
  NamespaceSpec: struct({
    finalizers: strings(
      'Finalizers is an opaque list of values that must be empty to permanently remove object from storage.',
    ),
  }),
  NamespaceStatus: struct({
    phase: enumOf(
      ['Active', 'Terminating'],
      'Phase is the current lifecycle phase of the namespace.',
    ),
    conditions: listOf(c('NamespaceCondition'), {
      mergeKey: 'type',
      description: "Represents the latest available observations of a namespace's current state.",
    }),
  }),
  NamespaceCondition: struct({
    type: required(str('Type of namespace controller condition.')),
    status: required(
      enumOf(CONDITION_STATUS, 'Status of the condition, one of True, False, Unknown.'),
    ),
    lastTransitionTime: time('Last time the condition transitioned from one status to another.'),
    reason: str("Unique, one-word, CamelCase reason for the condition's last transition."),
    message: str('Human-readable message indicating details about last transition.'),
  }),
})
