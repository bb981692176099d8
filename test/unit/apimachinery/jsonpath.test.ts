import { describe, it, expect } from 'vitest'
import { evaluateJsonPath, parseJsonPath } from '../../../src/apimachinery/jsonpath'
import { printerCell } from '../../../src/printers/printer-cell'

const obj = {
  metadata: {
    name: 'w',
    labels: { app: 'web', 'app.kubernetes.io/name': 'widget' },
    creationTimestamp: '2024-01-01T00:00:00Z',
  },
  spec: {
    replicas: 3,
    ratio: 0.5,
    paused: false,
    nothing: null,
    selector: { matchLabels: { app: 'web' } },
  },
  status: {
    conditions: [
      { type: 'Available', status: 'False', count: 1 },
      { type: 'Ready', status: 'True', count: 2 },
    ],
  },
  items: [{ name: 'a' }, { name: 'b' }, { other: 1 }, { name: 'c' }],
}

describe('evaluateJsonPath', () => {
  it('follows fields', () => {
    expect(evaluateJsonPath('.spec.replicas', obj)).toEqual([3])
    expect(evaluateJsonPath('{.metadata.labels.app}', obj)).toEqual(['web'])
    expect(evaluateJsonPath('.spec.selector', obj)).toEqual([{ matchLabels: { app: 'web' } }])
    expect(evaluateJsonPath('.spec.nothing', obj)).toEqual([null])
  })

  it('selects nothing for missing keys and fields of lists', () => {
    expect(evaluateJsonPath('.spec.missing.deeper', obj)).toEqual([])
    expect(evaluateJsonPath('.status.conditions.type', obj)).toEqual([])
  })

  it('indexes, slices and expands lists', () => {
    expect(evaluateJsonPath('.status.conditions[0].type', obj)).toEqual(['Available'])
    expect(evaluateJsonPath('.status.conditions[-1].type', obj)).toEqual(['Ready'])
    expect(evaluateJsonPath('.items[*].name', obj)).toEqual(['a', 'b', 'c'])
    expect(evaluateJsonPath('.items[1:3]', obj)).toEqual([{ name: 'b' }, { other: 1 }])
    expect(evaluateJsonPath('.items[::2].name', obj)).toEqual(['a'])
    expect(evaluateJsonPath('.items[0,3].name', obj)).toEqual(['a', 'c'])
    expect(evaluateJsonPath('.metadata.labels.*', obj)).toEqual(['web', 'widget'])
  })

  it('selects nothing when an index is out of range or a non-list is indexed', () => {
    expect(evaluateJsonPath('.items[9].name', obj)).toEqual([])
    expect(evaluateJsonPath('.spec[0]', obj)).toEqual([])
  })

  it('filters lists', () => {
    expect(evaluateJsonPath('.status.conditions[?(@.type=="Ready")].status', obj)).toEqual(['True'])
    expect(evaluateJsonPath(".status.conditions[?(@.type == 'Available')].status", obj)).toEqual([
      'False',
    ])
    expect(evaluateJsonPath('.status.conditions[?(@.count>1)].type', obj)).toEqual(['Ready'])
    expect(evaluateJsonPath('.status.conditions[?(@.type!="Ready")].type', obj)).toEqual([
      'Available',
    ])
    expect(evaluateJsonPath('.items[?(@.name)].name', obj)).toEqual(['a', 'b', 'c'])
    expect(evaluateJsonPath('.missing[?(@.type=="Ready")].status', obj)).toEqual([])
  })

  it('reads keys with dots when the dots are escaped, and splits quoted keys on dots as kubectl does', () => {
    expect(evaluateJsonPath('.metadata.labels.app\\.kubernetes\\.io/name', obj)).toEqual(['widget'])
    expect(evaluateJsonPath("['metadata']['labels']['app\\.kubernetes\\.io/name']", obj)).toEqual([
      'widget',
    ])
    expect(evaluateJsonPath("['a.b']", { a: { b: 1 }, 'a.b': 2 })).toEqual([1])
    expect(evaluateJsonPath("['a\\.b']", { a: { b: 1 }, 'a.b': 2 })).toEqual([2])
  })

  it('descends recursively', () => {
    expect(evaluateJsonPath('..name', { a: { name: 'x', b: [{ name: 'y' }] } })).toEqual(['x', 'y'])
  })

  it('rejects what kubectl cannot parse', () => {
    expect(() => parseJsonPath('.items[')).toThrow('unterminated array')
    expect(() => parseJsonPath('.items[a]')).toThrow('invalid array index a')
    expect(() => parseJsonPath('.a[?(@.x=="y"')).toThrow('unterminated filter')
    expect(() => parseJsonPath('..a..b')).not.toThrow()
    expect(evaluateJsonPath('.items[', obj)).toEqual([])
  })
})

describe('printerCell', () => {
  const now = Date.parse('2024-01-03T03:00:00Z')

  it('keeps values of the column type, only the first one', () => {
    expect(printerCell('integer', [3], now)).toBe(3)
    expect(printerCell('integer', [3.9], now)).toBe(3)
    expect(printerCell('number', [3], now)).toBe(3)
    expect(printerCell('boolean', [false], now)).toBe(false)
    expect(printerCell('string', ['a', 'b', 'c'], now)).toBe('a')
  })

  it('is null when nothing matched or the type does not fit', () => {
    expect(printerCell('string', [], now)).toBeNull()
    expect(printerCell('integer', [], now)).toBeNull()
    expect(printerCell('integer', ['3'], now)).toBeNull()
    expect(printerCell('boolean', ['true'], now)).toBeNull()
    expect(printerCell('integer', [null], now)).toBeNull()
    expect(printerCell('color', ['x'], now)).toBeNull()
  })

  it('prints any value as text in a string column', () => {
    expect(printerCell('string', [3], now)).toBe('3')
    expect(printerCell('string', [0.5], now)).toBe('0.5')
    expect(printerCell('string', [true], now)).toBe('true')
    expect(printerCell('string', [{ b: 1, a: '<x>' }], now)).toBe('{"a":"\\u003cx\\u003e","b":1}')
    expect(printerCell('string', [['x', 'y']], now)).toBe('["x","y"]')
    expect(printerCell('string', [null], now)).toBe('<no value>')
  })

  it('shows the age of a date', () => {
    expect(printerCell('date', ['2024-01-01T00:00:00Z'], now)).toBe('2d3h')
    expect(printerCell('date', ['2024-01-03T02:55:00Z'], now)).toBe('5m')
    expect(printerCell('date', ['yesterday'], now)).toBe('<invalid>')
    expect(printerCell('date', [''], now)).toBe('<unknown>')
    expect(printerCell('date', ['0001-01-01T00:00:00Z'], now)).toBe('<unknown>')
    expect(printerCell('date', [5], now)).toBeNull()
  })

  it('makes the cells of typical printer columns', () => {
    const cell = (type: string, path: string) => printerCell(type, evaluateJsonPath(path, obj), now)
    expect(cell('integer', '.spec.replicas')).toBe(3)
    expect(cell('string', '.status.conditions[?(@.type=="Ready")].status')).toBe('True')
    expect(cell('string', '.items[*].name')).toBe('a')
    expect(cell('date', '.metadata.creationTimestamp')).toBe('2d3h')
    expect(cell('string', '.status.missing')).toBeNull()
  })
})
