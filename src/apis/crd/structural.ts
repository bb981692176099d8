import {
  forbidden,
  formatCause,
  invalid,
  required,
  type FieldCause,
} from '../../apimachinery/field-errors'
import type { JSONSchemaProps } from './schema'
import { compilePattern } from './pattern'

/**
 * The structural-schema checks a CRD version's schema must pass when the CRD is written, the
 * subset kube-apiserver runs that concerns types and fields: every specified field, array item
 * and the root have a type, arrays have items, the root is an object without
 * additionalProperties, embedded resources are objects, metadata at the root restricts at most
 * name and generateName, and patterns compile as Go regular expressions.
 */

type Level = 'root' | 'item' | 'field'

const emptyTypeMessages: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
}

const isSchema = (v: unknown): v is JSONSchemaProps =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function check(s: JSONSchemaProps, level: Level, path: string, out: FieldCause[]): void {
  const type = s.type ?? ''
  const embedded = !!s['x-kubernetes-embedded-resource']
  const preserve = !!s['x-kubernetes-preserve-unknown-fields']
  const intOrString = !!s['x-kubernetes-int-or-string']
  const props = s.properties ?? {}

  if (type === 'array' && !s.items) out.push(required(`${path}.items`, 'must be specified'))
  if (s.items) check(s.items, 'item', `${path}.items`, out)
  for (const [k, v] of Object.entries(props)) check(v, 'field', `${path}.properties[${k}]`, out)
  if (s.additionalProperties !== undefined) {
    if (level === 'root')
      out.push(forbidden(`${path}.additionalProperties`, 'must not be used at the root'))
    if (isSchema(s.additionalProperties))
      check(s.additionalProperties, 'field', `${path}.additionalProperties`, out)
  }

  if (s.pattern) {
    const re = compilePattern(s.pattern)
    if (re instanceof Error)
      out.push(
        invalid(
          `${path}.pattern`,
          s.pattern,
          `must be a valid regular expression, but isn't: ${re.message}`,
        ),
      )
  }

  if (intOrString && preserve)
    out.push(
      invalid(
        `${path}.x-kubernetes-preserve-unknown-fields`,
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    )
  if (intOrString && embedded)
    out.push(
      invalid(
        `${path}.x-kubernetes-embedded-resource`,
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    )

  if (embedded && type !== 'object') {
    const message = 'must be object if x-kubernetes-embedded-resource is true'
    out.push(
      type === '' ? required(`${path}.type`, message) : invalid(`${path}.type`, type, message),
    )
  } else if (type === '' && !intOrString && !preserve) {
    out.push(required(`${path}.type`, emptyTypeMessages[level]))
  }
  if (embedded && s.additionalProperties !== undefined) {
    out.push(
      forbidden(
        `${path}.additionalProperties`,
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    )
  }
  if (level === 'root' && type !== '' && type !== 'object')
    out.push(invalid(`${path}.type`, type, 'must be object at the root'))

  const checkMetadata = level === 'root' || embedded
  for (const key of ['kind', 'apiVersion']) {
    const p = Object.hasOwn(props, key) ? props[key] : undefined
    if (p && checkMetadata && p.type !== 'string')
      out.push(invalid(`${path}.properties[${key}].type`, p.type ?? '', 'must be string'))
  }
  const metadata = Object.hasOwn(props, 'metadata') ? props.metadata : undefined
  if (metadata)
    checkMetadataSchema(metadata, checkMetadata, level, `${path}.properties[metadata]`, out)

  if (embedded && !preserve && Object.keys(props).length === 0) {
    out.push(
      required(
        `${path}.properties`,
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    )
  }
}

function checkMetadataSchema(
  s: JSONSchemaProps,
  checkMetadata: boolean,
  level: Level,
  path: string,
  out: FieldCause[],
): void {
  if (checkMetadata && s.type !== 'object')
    out.push(invalid(`${path}.type`, s.type ?? '', 'must be object'))
  if (level !== 'root') return
  // Only name and generateName may be restricted; everything else of ObjectMeta is implicit.
  const propNames = Object.keys(s.properties ?? {})
  const onlyNames = propNames.every((k) => k === 'name' || k === 'generateName')
  const rest = Object.entries(s).filter(
    ([k, v]) =>
      v !== undefined && k !== 'type' && k !== 'default' && !(k === 'properties' && onlyNames),
  )
  if (rest.length > 0)
    out.push(
      forbidden(
        path,
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ),
    )
}

/**
 * The causes of `schema` (found at `path`, e.g. `spec.versions[0].schema.openAPIV3Schema`) not
 * being structural, sorted by their text as kube-apiserver sorts them.
 */
export function checkStructural(schema: JSONSchemaProps, path: string): FieldCause[] {
  const out: FieldCause[] = []
  check(schema, 'root', path, out)
  return out
    .map((c) => ({ c, text: formatCause(c) }))
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map(({ c }) => c)
}
