import { describe, expect, it } from 'vitest'
import { formatCause } from '../../../../src/apimachinery/field-errors'
import { validateLimitRange } from '../../../../src/apis/limit-range/object'
import type { KubeObject } from '../../../../src/apimachinery/types'

const nameRegexPart =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"

const lines = (...limits: unknown[]) =>
  validateLimitRange({ metadata: { name: 'lr' }, spec: { limits } } as KubeObject).map(formatCause)

describe('LimitRange item types', () => {
  it('refuses an item without a type as upstream does: the empty name is not a qualified name', () => {
    // The kubernetes/website example concepts/policy/limit-range/problematic-limit-range.yaml.
    expect(
      lines({
        default: { cpu: '500m' },
        defaultRequest: { cpu: '500m' },
        max: { cpu: '1' },
        min: { cpu: '100m' },
      }),
    ).toEqual([
      'spec.limits[0].type: Invalid value: "": name part must be non-empty',
      `spec.limits[0].type: Invalid value: "": name part ${nameRegexPart}`,
    ])
  })

  it('takes the standard types and prefixed ones, and refuses an unknown bare type and a repeated one', () => {
    expect(
      lines(
        { type: 'Container' },
        { type: 'Pod' },
        { type: 'PersistentVolumeClaim' },
        { type: 'example.com/Thing' },
      ),
    ).toEqual([])
    expect(lines({ type: 'Node' })).toEqual([
      'spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified',
    ])
    expect(lines({ type: 'Container' }, { type: 'Container' })).toEqual([
      'spec.limits[1].type: Duplicate value: "Container"',
    ])
  })
})
