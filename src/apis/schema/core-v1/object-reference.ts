/** The references to other objects that core/v1 and other groups embed. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, group, required, str, struct } from '../dsl'

export const coreV1References: SchemaSet = group(CORE, {
  ObjectReference: struct(
    {
      kind: str('Kind of the referent.'),
      namespace: str('Namespace of the referent.'),
      name: str('Name of the referent.'),
      uid: str('UID of the referent.'),
      apiVersion: str('API version of the referent.'),
      resourceVersion: str('Specific resourceVersion to which this reference is made, if any.'),
      fieldPath: str(
        'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].',
      ),
    },
    'ObjectReference contains enough information to let you inspect or modify the referred object.',
  ),
  LocalObjectReference: struct(
    { name: str('Name of the referent.') },
    'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
  ),
  TypedLocalObjectReference: struct({
    apiGroup: str('APIGroup is the group for the resource being referenced.'),
    kind: required(str('Kind is the type of resource being referenced')),
    name: required(str('Name is the name of resource being referenced')),
  }),
  TypedObjectReference: struct({
    apiGroup: str('APIGroup is the group for the resource being referenced.'),
    kind: required(str('Kind is the type of resource being referenced')),
    name: required(str('Name is the name of resource being referenced')),
    namespace: str('Namespace is the namespace of resource being referenced'),
  }),
})
