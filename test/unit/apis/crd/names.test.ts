import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { formatCause } from '../../../../src/apimachinery/field-errors'
import { validateCrd } from '../../../../src/apis/crd/validate-crd'

const schema = { openAPIV3Schema: { type: 'object' } }
const dns1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"

function crd(names: Record<string, unknown>): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${String(names.plural ?? '')}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names,
      versions: [{ name: 'v1', served: true, storage: true, schema }],
    },
  }
}

const messages = (names: Record<string, unknown>) => validateCrd(crd(names)).map(formatCause)

describe('CustomResourceDefinition names (ValidateCustomResourceDefinitionNames)', () => {
  it('refuses a plural or singular that starts with a digit, as a DNS-1035 label', () => {
    expect(messages({ plural: '3dprinters', singular: '3dprinter', kind: 'Printer' })).toEqual([
      `spec.names.plural: Invalid value: "3dprinters": ${dns1035}`,
      `spec.names.singular: Invalid value: "3dprinter": ${dns1035}`,
    ])
  })

  it('accepts names that DNS-1035 allows, with singular and listKind defaulted from the kind', () => {
    expect(
      messages({
        plural: 'printers3d',
        kind: 'Printer3D',
        shortNames: ['p3d'],
        categories: ['all', 'printing'],
      }),
    ).toEqual([])
  })

  it('checks kind and listKind lowercased, with upstream’s mixed-case wording, and keeps them apart', () => {
    expect(messages({ plural: 'widgets', kind: '9Widget' })).toEqual([
      `spec.names.singular: Invalid value: "9widget": ${dns1035}`,
      `spec.names.kind: Invalid value: "9Widget": may have mixed case, but should otherwise match: ${dns1035}`,
      `spec.names.listKind: Invalid value: "9WidgetList": may have mixed case, but should otherwise match: ${dns1035}`,
    ])
    expect(messages({ plural: 'widgets', kind: 'Widget', listKind: 'Widget' })).toEqual([
      'spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same',
    ])
  })

  it('reports every short name and category that is not a DNS-1035 label, empty ones included', () => {
    expect(
      messages({
        plural: 'widgets',
        kind: 'Widget',
        shortNames: ['w', '2w', ''],
        categories: ['all', 'My_Things'],
      }),
    ).toEqual([
      `spec.names.shortNames[1]: Invalid value: "2w": ${dns1035}`,
      `spec.names.shortNames[2]: Invalid value: "": ${dns1035}`,
      `spec.names.categories[1]: Invalid value: "My_Things": ${dns1035}`,
    ])
  })

  it('requires plural and kind, and with no kind nothing to default singular and listKind from', () => {
    expect(messages({ plural: 'widgets' })).toEqual([
      'spec.names.singular: Required value',
      'spec.names.kind: Required value',
      'spec.names.listKind: Required value',
    ])
  })

  it('joins the problems of one over-long name into one cause, as upstream does', () => {
    const long = `a${'b'.repeat(63)}-`
    expect(
      messages({ plural: long, singular: 'widget', kind: 'Widget' }).filter((m) =>
        m.startsWith('spec.names.plural'),
      ),
    ).toEqual([
      `spec.names.plural: Invalid value: "${long}": must be no more than 63 characters,${dns1035}`,
    ])
  })
})
