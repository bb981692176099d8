import { describe, it, expect } from 'vitest'
import {
  SelectorError,
  everything,
  formatLabelSelector,
  isEverything,
  labelSelectorString,
  matchesLabels,
  nothing,
  requiresExactMatch,
  selectorFromLabelSelector,
  selectorFromSet,
  type MetaLabelSelector,
} from '../../../src/apimachinery/labels'
import {
  fieldSelectorString,
  fieldValuesFor,
  matchesFields,
  parseFieldSelector,
  supportedFieldLabels,
  validateFieldSelector,
} from '../../../src/apimachinery/fields'
import type { KubeObject } from '../../../src/apimachinery/types'
import { parseLabelSelector } from '../../../src/apimachinery/label-selector-parser'

function parseError(fn: () => unknown): string {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(SelectorError)
    return (e as Error).message
  }
  throw new Error('expected a SelectorError')
}

const qualifiedNameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"

describe('parseLabelSelector + matchesLabels', () => {
  const web = { app: 'web', tier: 'frontend' }
  const db = { app: 'db', tier: 'backend', 'example.com/team': 'a' }
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ['app=web', web, true],
    ['app=web', db, false],
    ['app==web', web, true],
    ['app!=web', web, false],
    ['app!=web', db, true],
    ['app!=web', {}, true],
    ['app in (web,db)', web, true],
    ['app in (web,db)', db, true],
    ['app in (api)', web, false],
    ['app notin (web)', web, false],
    ['app notin (web)', db, true],
    ['app notin (web)', {}, true],
    ['tier', web, true],
    ['tier', {}, false],
    ['!tier', web, false],
    ['!tier', {}, true],
    ['!tier', undefined, true],
    ['app=web,tier=frontend', web, true],
    ['app=web,tier=backend', web, false],
    ['  app = web ,  tier in ( frontend , backend ) ', web, true],
    ['example.com/team=a', db, true],
    ['example.com/team', web, false],
    ['', web, true],
    ['', undefined, true],
    ['app=', { app: '' }, true],
    ['app=', {}, false],
    ['app in ()', { app: '' }, true],
    ['app in (,web)', web, true],
    ['app in (,web)', { app: '' }, true],
    ['x in (in,notin)', { x: 'notin' }, true],
    ['replicas>2', { replicas: '3' }, true],
    ['replicas>2', { replicas: '2' }, false],
    ['replicas<2', { replicas: '1' }, true],
    ['replicas>2', { replicas: 'many' }, false],
    ['replicas>2', {}, false],
  ]
  it.each(cases)('%j on %j → %s', (sel, labels, want) => {
    expect(matchesLabels(parseLabelSelector(sel), labels)).toBe(want)
  })
})

describe('label selector string form', () => {
  const cases: [string, string][] = [
    ['app=web', 'app=web'],
    ['app==web', 'app==web'],
    ['tier!=db,app=web', 'app=web,tier!=db'],
    ['k in (b,a), j notin (c)', 'j notin (c),k in (a,b)'],
    ['k in (a,a,b)', 'k in (a,b)'],
    ['k', 'k'],
    ['!k', '!k'],
    ['x in ()', 'x in ()'],
    ['x in (a,,b)', 'x in (,a,b)'],
    ['n>5', 'n>5'],
    ['n<5', 'n<5'],
    ['x=', 'x='],
    ['', ''],
    ['   ', ''],
  ]
  it.each(cases)('%j prints %j', (input, want) => {
    expect(labelSelectorString(parseLabelSelector(input))).toBe(want)
  })
})

describe('label selector parse errors', () => {
  const cases: [string, string][] = [
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    ['a==b==c', "found '==', expected: ',' or 'end of string'"],
    ['x=b)', "found ')', expected: ',' or 'end of string'"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a=b,,c', "found ',', expected: identifier after ','"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['x in', "unable to parse requirement: found '' expected: '('"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['x)', "unable to parse requirement: found ')', expected: in, notin, =, ==, !=, gt, lt"],
    ['a!b', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['-a=b', `unable to parse requirement: <nil>: Invalid value: "-a": ${qualifiedNameMsg}`],
    [
      'a/b/c',
      "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ],
    ['x=a_', `unable to parse requirement: values[0][x]: Invalid value: "a_": ${labelValueMsg}`],
    [
      'x in (b_,a_)',
      `unable to parse requirement: [values[0][x]: Invalid value: "a_": ${labelValueMsg}, values[1][x]: Invalid value: "b_": ${labelValueMsg}]`,
    ],
    [
      'x=' + 'a'.repeat(64),
      `unable to parse requirement: values[0][x]: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`,
    ],
    [
      'n>a',
      `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
  ]
  it.each(cases)('%j', (input, want) => {
    expect(parseError(() => parseLabelSelector(input))).toBe(want)
  })
})

describe('selectorFromLabelSelector / formatLabelSelector', () => {
  const cases: [string, MetaLabelSelector, Record<string, string>, boolean, string][] = [
    ['matchLabels', { matchLabels: { app: 'web' } }, { app: 'web', x: 'y' }, true, 'app=web'],
    [
      'matchLabels miss',
      { matchLabels: { app: 'web', tier: 'fe' } },
      { app: 'web' },
      false,
      'app=web,tier=fe',
    ],
    [
      'In',
      { matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] },
      { tier: 'a' },
      true,
      'tier in (a,b)',
    ],
    [
      'NotIn',
      { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['a'] }] },
      { tier: 'a' },
      false,
      'tier notin (a)',
    ],
    [
      'Exists',
      { matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
      { tier: 'x' },
      true,
      'tier',
    ],
    [
      'DoesNotExist',
      { matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] },
      { tier: 'x' },
      false,
      '!tier',
    ],
    [
      'both, sorted by key',
      {
        matchLabels: { tier: 'fe', app: 'web' },
        matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }],
      },
      { app: 'web', tier: 'fe', env: 'dev' },
      true,
      'app=web,env in (dev,prod),tier=fe',
    ],
    ['empty selects everything', {}, {}, true, ''],
    [
      'empty lists select everything',
      { matchLabels: {}, matchExpressions: [] },
      { a: 'b' },
      true,
      '',
    ],
  ]
  it.each(cases)('%s', (_name, ls, labels, want, text) => {
    expect(matchesLabels(selectorFromLabelSelector(ls), labels)).toBe(want)
    expect(formatLabelSelector(ls)).toBe(text)
  })

  it('a missing selector matches nothing', () => {
    expect(selectorFromLabelSelector(null)).toBe(nothing)
    expect(selectorFromLabelSelector(undefined)).toBe(nothing)
    expect(matchesLabels(nothing, { app: 'web' })).toBe(false)
    expect(matchesLabels(nothing, {})).toBe(false)
    expect(formatLabelSelector(undefined)).toBe('')
    expect(isEverything(nothing)).toBe(false)
    expect(isEverything(everything)).toBe(true)
  })

  const errors: [string, MetaLabelSelector, string][] = [
    [
      'unknown operator',
      { matchExpressions: [{ key: 'a', operator: 'Foo' }] },
      '"Foo" is not a valid label selector operator',
    ],
    [
      'In without values',
      { matchExpressions: [{ key: 'a', operator: 'In', values: [] }] },
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist',
    ],
    ['bad key', { matchLabels: { 'a b': 'x' } }, `key: Invalid value: "a b": ${qualifiedNameMsg}`],
    [
      'bad value',
      { matchLabels: { a: 'x y' } },
      `values[0][a]: Invalid value: "x y": ${labelValueMsg}`,
    ],
  ]
  it.each(errors)('%s throws', (_name, ls, want) => {
    expect(parseError(() => selectorFromLabelSelector(ls))).toBe(want)
    expect(parseError(() => formatLabelSelector(ls))).toBe(want)
  })

  it('selectorFromSet and requiresExactMatch', () => {
    const sel = selectorFromSet({ b: '2', a: '1' })
    expect(labelSelectorString(sel)).toBe('a=1,b=2')
    expect(matchesLabels(sel, { a: '1', b: '2', c: '3' })).toBe(true)
    expect(isEverything(selectorFromSet({}))).toBe(true)
    expect(requiresExactMatch(parseLabelSelector('app=web,tier in (a,b)'), 'app')).toBe('web')
    expect(requiresExactMatch(parseLabelSelector('app in (web)'), 'app')).toBe('web')
    expect(requiresExactMatch(parseLabelSelector('app in (a,b)'), 'app')).toBeUndefined()
    expect(requiresExactMatch(parseLabelSelector('app!=web'), 'app')).toBeUndefined()
  })
})

describe('parseFieldSelector', () => {
  const cases: [string, [string, string, string][], string][] = [
    ['metadata.name=web', [['metadata.name', '=', 'web']], 'metadata.name=web'],
    ['metadata.name==web', [['metadata.name', '=', 'web']], 'metadata.name=web'],
    ['status.phase!=Failed', [['status.phase', '!=', 'Failed']], 'status.phase!=Failed'],
    [
      'spec.nodeName=n1,status.phase!=Succeeded,status.phase!=Failed',
      [
        ['spec.nodeName', '=', 'n1'],
        ['status.phase', '!=', 'Failed'],
        ['status.phase', '!=', 'Succeeded'],
      ],
      'spec.nodeName=n1,status.phase!=Failed,status.phase!=Succeeded',
    ],
    [
      'involvedObject.namespace=',
      [['involvedObject.namespace', '=', '']],
      'involvedObject.namespace=',
    ],
    ['a=x\\,y\\=z\\\\', [['a', '=', 'x,y=z\\']], 'a=x\\,y\\=z\\\\'],
    ['a=b,,', [['a', '=', 'b']], 'a=b'],
    ['', [], ''],
  ]
  it.each(cases)('%j', (input, want, text) => {
    const sel = parseFieldSelector(input)
    expect(sel.requirements.map((r) => [r.field, r.operator, r.value])).toEqual(want)
    expect(fieldSelectorString(sel)).toBe(text)
  })

  const errors: [string, string][] = [
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
  ]
  it.each(errors)('%j fails', (input, want) => {
    expect(parseError(() => parseFieldSelector(input))).toBe(want)
  })
})

describe('matchesFields', () => {
  const values = { 'metadata.name': 'web', 'metadata.namespace': '', 'status.phase': 'Running' }
  const cases: [string, boolean][] = [
    ['metadata.name=web', true],
    ['metadata.name=api', false],
    ['metadata.name!=api', true],
    ['metadata.namespace=', true],
    ['spec.nodeName=', true],
    ['spec.nodeName!=', false],
    ['status.phase!=Succeeded,status.phase!=Failed', true],
    ['status.phase!=Running,metadata.name=web', false],
  ]
  it.each(cases)('%j → %s', (sel, want) => {
    expect(matchesFields(parseFieldSelector(sel), values)).toBe(want)
  })
})

describe('validateFieldSelector', () => {
  const ok: [string, string][] = [
    ['pods', 'metadata.name=a,metadata.namespace=b'],
    [
      'pods',
      'spec.nodeName=n,spec.restartPolicy=Always,spec.schedulerName=s,spec.serviceAccountName=sa,spec.hostNetwork=true',
    ],
    [
      'pods',
      'status.phase=Running,status.podIP=10.0.0.1,status.podIPs=10.0.0.1,status.nominatedNodeName=n',
    ],
    [
      'events',
      'involvedObject.kind=Pod,involvedObject.namespace=,involvedObject.name=x,involvedObject.uid=u',
    ],
    [
      'events',
      'involvedObject.apiVersion=v1,involvedObject.resourceVersion=1,involvedObject.fieldPath=spec',
    ],
    ['events', 'reason=Failed,reportingComponent=kubelet,source=kubelet,type=Warning'],
    ['nodes', 'metadata.name=n,spec.unschedulable=true'],
    ['namespaces', 'metadata.name=n,status.phase=Active'],
    ['secrets', 'type=Opaque,metadata.namespace=default'],
    ['services', 'spec.clusterIP=None,spec.type=ClusterIP'],
    ['replicationcontrollers', 'status.replicas=1'],
    ['jobs', 'status.successful=1'],
    ['batch/jobs', 'status.successful=1'],
    ['core/pods', 'spec.nodeName=n'],
    ['configmaps', 'metadata.name=a,metadata.namespace=b'],
    ['deployments', 'metadata.name=a'],
    ['widgets.example.com', 'metadata.namespace=a'],
  ]
  it.each(ok)('%s accepts %j', (resource, sel) => {
    expect(() => validateFieldSelector(resource, parseFieldSelector(sel))).not.toThrow()
  })

  const rejected: [string, string, string][] = [
    ['pods', 'foo=bar', 'field label not supported: foo'],
    ['pods', 'spec.containers=x', 'field label not supported: spec.containers'],
    ['events', 'message=x', 'field label not supported: message'],
    ['nodes', 'metadata.namespace=', 'field label not supported: metadata.namespace'],
    ['namespaces', 'spec.finalizers=x', 'field label not supported: spec.finalizers'],
    ['secrets', 'data=x', 'field label not supported: data'],
    ['services', 'spec.ports=x', 'field label not supported: spec.ports'],
    ['jobs', 'status.replicas=1', 'field label "status.replicas" not supported for Job'],
    [
      'configmaps',
      'foo=bar',
      '"foo" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
    [
      'replicasets',
      'status.replicas=1',
      '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
    [
      'deployments',
      'spec.replicas=1',
      '"spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
    // Terms are checked in sorted order, so the first unsupported one in that order is named.
    ['pods', 'zzz=1,aaa=1', 'field label not supported: aaa'],
  ]
  it.each(rejected)('%s rejects %j', (resource, sel, want) => {
    expect(parseError(() => validateFieldSelector(resource, parseFieldSelector(sel)))).toBe(want)
  })

  it('rewrites the legacy spec.host label', () => {
    const sel = validateFieldSelector('pods', parseFieldSelector('spec.host=n1'))
    expect(sel.requirements).toEqual([{ field: 'spec.nodeName', operator: '=', value: 'n1' }])
  })

  it('lists supported labels', () => {
    expect(supportedFieldLabels('nodes')).toEqual(['metadata.name', 'spec.unschedulable'])
    expect(supportedFieldLabels('configmaps')).toEqual(['metadata.name', 'metadata.namespace'])
    expect(supportedFieldLabels('jobs')).toEqual([
      'metadata.name',
      'metadata.namespace',
      'status.successful',
    ])
  })
})

describe('fieldValuesFor', () => {
  const meta = (name: string, namespace?: string) => ({ name, ...(namespace ? { namespace } : {}) })

  it('pods', () => {
    const pod: KubeObject = {
      metadata: meta('web-1', 'default'),
      spec: {
        nodeName: 'n1',
        restartPolicy: 'Always',
        schedulerName: 'default-scheduler',
        serviceAccountName: 'default',
        hostNetwork: true,
      },
      status: {
        phase: 'Running',
        podIP: '10.0.0.9',
        podIPs: [{ ip: '10.0.0.9' }, { ip: 'fd00::9' }],
        nominatedNodeName: 'n2',
      },
    }
    expect(fieldValuesFor('pods', pod)).toEqual({
      'metadata.name': 'web-1',
      'metadata.namespace': 'default',
      'spec.nodeName': 'n1',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': 'default',
      'spec.hostNetwork': 'true',
      'status.phase': 'Running',
      'status.podIP': '10.0.0.9',
      'status.nominatedNodeName': 'n2',
      'spec.host': 'n1',
    })
  })

  it('pods with nothing set read empty strings and hostNetwork false', () => {
    const v = fieldValuesFor('pods', { metadata: meta('p', 'ns') })
    expect(v['spec.nodeName']).toBe('')
    expect(v['spec.hostNetwork']).toBe('false')
    expect(v['status.podIP']).toBe('')
  })

  it('the filters kubectl sends', () => {
    const pending: KubeObject = {
      metadata: meta('a', 'ns'),
      spec: { nodeName: 'n1' },
      status: { phase: 'Pending' },
    }
    const done: KubeObject = {
      metadata: meta('b', 'ns'),
      spec: { nodeName: 'n1' },
      status: { phase: 'Succeeded' },
    }
    const elsewhere: KubeObject = {
      metadata: meta('c', 'ns'),
      spec: { nodeName: 'n2' },
      status: { phase: 'Running' },
    }
    const describeNode = parseFieldSelector(
      'spec.nodeName=n1,status.phase!=Succeeded,status.phase!=Failed',
    )
    expect(
      [pending, done, elsewhere]
        .filter((p) => matchesFields(describeNode, fieldValuesFor('pods', p)))
        .map((p) => p.metadata.name),
    ).toEqual(['a'])
    const waitFor = parseFieldSelector('metadata.name=b')
    expect(
      [pending, done, elsewhere]
        .filter((p) => matchesFields(waitFor, fieldValuesFor('pods', p)))
        .map((p) => p.metadata.name),
    ).toEqual(['b'])
  })

  it('events, with source falling back to the reporting controller', () => {
    const oldStyle: KubeObject = {
      metadata: meta('e1', 'default'),
      involvedObject: {
        kind: 'Pod',
        name: 'web-1',
        namespace: 'default',
        uid: 'u1',
        apiVersion: 'v1',
        resourceVersion: '5',
        fieldPath: 'spec.containers{web}',
      },
      reason: 'Pulled',
      type: 'Normal',
      source: { component: 'kubelet', host: 'n1' },
    }
    expect(fieldValuesFor('events', oldStyle)).toEqual({
      'metadata.name': 'e1',
      'metadata.namespace': 'default',
      'involvedObject.kind': 'Pod',
      'involvedObject.namespace': 'default',
      'involvedObject.name': 'web-1',
      'involvedObject.uid': 'u1',
      'involvedObject.apiVersion': 'v1',
      'involvedObject.resourceVersion': '5',
      'involvedObject.fieldPath': 'spec.containers{web}',
      reason: 'Pulled',
      reportingComponent: '',
      source: 'kubelet',
      type: 'Normal',
    })
    const newStyle: KubeObject = {
      metadata: meta('e2', 'default'),
      involvedObject: { kind: 'Node', name: 'n1' },
      reportingComponent: 'node-controller',
    }
    const v = fieldValuesFor('events', newStyle)
    expect(v.source).toBe('node-controller')
    // describe node asks for events with an empty involvedObject.namespace
    const forNode = parseFieldSelector(
      'involvedObject.kind=Node,involvedObject.name=n1,involvedObject.namespace=',
    )
    expect(matchesFields(validateFieldSelector('events', forNode), v)).toBe(true)
    expect(matchesFields(forNode, fieldValuesFor('events', oldStyle))).toBe(false)
  })

  const others: [string, KubeObject, Record<string, string>][] = [
    [
      'nodes',
      { metadata: meta('n1'), spec: { unschedulable: true } },
      { 'metadata.name': 'n1', 'spec.unschedulable': 'true' },
    ],
    ['nodes', { metadata: meta('n2') }, { 'metadata.name': 'n2', 'spec.unschedulable': 'false' }],
    [
      'namespaces',
      { metadata: meta('ns'), status: { phase: 'Active' } },
      { 'metadata.name': 'ns', 'status.phase': 'Active' },
    ],
    [
      'secrets',
      { metadata: meta('s', 'd'), type: 'Opaque' },
      { 'metadata.name': 's', 'metadata.namespace': 'd', type: 'Opaque' },
    ],
    [
      'services',
      { metadata: meta('svc', 'd'), spec: { clusterIP: '10.96.0.1', type: 'ClusterIP' } },
      {
        'metadata.name': 'svc',
        'metadata.namespace': 'd',
        'spec.clusterIP': '10.96.0.1',
        'spec.type': 'ClusterIP',
      },
    ],
    [
      'jobs',
      { metadata: meta('j', 'd'), status: { succeeded: 3 } },
      { 'metadata.name': 'j', 'metadata.namespace': 'd', 'status.successful': '3' },
    ],
    [
      'jobs',
      { metadata: meta('j', 'd') },
      { 'metadata.name': 'j', 'metadata.namespace': 'd', 'status.successful': '0' },
    ],
    [
      'replicationcontrollers',
      { metadata: meta('rc', 'd'), status: { replicas: 2 } },
      { 'metadata.name': 'rc', 'metadata.namespace': 'd', 'status.replicas': '2' },
    ],
    [
      'configmaps',
      { metadata: meta('cm', 'd') },
      { 'metadata.name': 'cm', 'metadata.namespace': 'd' },
    ],
    [
      'clusterroles',
      { metadata: meta('admin') },
      { 'metadata.name': 'admin', 'metadata.namespace': '' },
    ],
  ]
  it.each(others)('%s', (resource, obj, want) => {
    expect(fieldValuesFor(resource, obj)).toEqual(want)
  })
})
