/** The core/v1 ServiceAccount kind. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, bool, group, kind, listOf } from '../dsl'
import { c, localRef } from './shorthands'

export const coreV1ServiceAccount: SchemaSet = group(CORE, {
  ServiceAccount: kind(
    'ServiceAccount binds together: a name, understood by users, and perhaps by peripheral systems, for an identity; a principal that can be authenticated and authorized; a set of secrets.',
    {
      secrets: listOf(c('ObjectReference'), {
        mergeKey: 'name',
        description:
          'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
      }),
      imagePullSecrets: listOf(
        localRef(),
        'ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount.',
      ),
      automountServiceAccountToken: bool(
        'AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted.',
      ),
    },
  ),
})
