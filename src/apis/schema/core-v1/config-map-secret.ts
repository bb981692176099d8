/** The ConfigMap and Secret kinds of core/v1. */
import type { SchemaSet } from '../../../apimachinery/schema-types'
import { CORE, bool, bytes, group, kind, mapOf, str } from '../dsl'
import { labels } from './shorthands'

export const coreV1ConfigData: SchemaSet = group(CORE, {
  ConfigMap: kind('ConfigMap holds configuration data for pods to consume.', {
    immutable: bool(
      'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified).',
    ),
    data: labels(
      "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'.",
    ),
    binaryData: mapOf(
      bytes(),
      "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'.",
    ),
  }),
  Secret: kind(
    'Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.',
    {
      immutable: bool(
        'Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified).',
      ),
      data: mapOf(
        bytes(),
        'Data contains the secret data. The serialized form of the secret data is a base64 encoded string.',
      ),
      stringData: labels(
        'stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience.',
      ),
      type: str('Used to facilitate programmatic handling of secret data.'),
    },
  ),
})
