/** The strategy of a custom resource: its CustomResourceDefinition's schema and rules (upstream's customResourceStrategy). */
import type { CustomResource } from '../resource-def'
import type { KindStrategy } from '../kind-strategy'
import { withStatusOf } from '../status-write'
import { createRuleCauses, transitionRuleCauses } from './cel-rule-eval'
import { validateAgainstSchema } from './validate'

export function customResourceStrategy({ schema }: CustomResource): KindStrategy {
  return {
    validate: (obj) => (schema ? validateAgainstSchema(schema, obj) : []),
    validateCreate: (obj) => (schema ? createRuleCauses(schema, obj) : []),
    validateUpdate: (old, obj) => (schema ? transitionRuleCauses(schema, old, obj) : []),
    // A custom resource's status is written through its status subresource only.
    initialStatus: () => undefined,
    // A status write is validated as the whole object, against the schema.
    subresources: { status: { prepareForUpdate: withStatusOf, part: 'status' } },
  }
}
