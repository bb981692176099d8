import { describe, it, expect } from 'vitest'
import {
  aggregateMessage,
  causeBody,
  formatCause,
  invalid,
  invalidMessage,
  notSupported,
  required,
  toStatusCause,
  tooLong,
  type FieldCause,
} from '../../../../src/apimachinery/field-errors'
import { validateWorkload } from '../../../../src/apis/validation'
import { validateMetaLabelSelector } from '../../../../src/apis/validation/selectors'
import type { KubeObject, ObjectMeta } from '../../../../src/apimachinery/types'
import type { Json } from '../../../../src/apimachinery/json-value'
import {
  validateAnnotations,
  validateDns1035Label,
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabels,
} from '../../../../src/apimachinery/field-formats'
import {
  nameRuleForKind,
  validateObjectMeta,
} from '../../../../src/apimachinery/object-meta-validation'

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
const dns1035Msg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
const nameRegexPart =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
const configKeyMsg =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"

const lines = (causes: FieldCause[]) => causes.map(formatCause)

describe('rendering causes', () => {
  it('formats each type as upstream', () => {
    const cases: [FieldCause, string][] = [
      [
        invalid('metadata.name', 'Bad_Name', subdomainMsg),
        `metadata.name: Invalid value: "Bad_Name": ${subdomainMsg}`,
      ],
      [
        required('spec.template.spec.containers[0].image'),
        'spec.template.spec.containers[0].image: Required value',
      ],
      [
        required('metadata.name', 'name or generateName is required'),
        'metadata.name: Required value: name or generateName is required',
      ],
      [
        invalid('spec.replicas', -1, 'must be greater than or equal to 0'),
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      ],
      [
        notSupported('spec.restartPolicy', 'Sometimes', ['Always', 'OnFailure', 'Never']),
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      ],
      [
        tooLong('metadata.annotations', 262144),
        'metadata.annotations: Too long: may not be more than 262144 bytes',
      ],
      [
        invalid('x', { a: 'b', C: 'd' }, 'm'),
        'x: Invalid value: map[string]string{"C":"d", "a":"b"}: m',
      ],
      [invalid('x', ['a', 'b'], 'm'), 'x: Invalid value: []string{"a", "b"}: m'],
      [invalid('x', 'say "hi"\n', 'm'), 'x: Invalid value: "say \\"hi\\"\\n": m'],
      [invalid('x', null, 'm'), 'x: Invalid value: null: m'],
    ]
    for (const [cause, want] of cases) expect(formatCause(cause)).toBe(want)
  })

  it('builds the StatusCause and the Invalid message', () => {
    const a = invalid('metadata.name', 'Bad_Name', subdomainMsg)
    const b = required('spec.selector')
    expect(causeBody(a)).toBe(`Invalid value: "Bad_Name": ${subdomainMsg}`)
    expect(toStatusCause(b)).toEqual({
      reason: 'FieldValueRequired',
      message: 'Required value',
      field: 'spec.selector',
    })
    expect(toStatusCause(a)).toEqual({
      reason: 'FieldValueInvalid',
      message: `Invalid value: "Bad_Name": ${subdomainMsg}`,
      field: 'metadata.name',
    })
    expect(invalidMessage('Deployment.apps', 'web', [b])).toBe(
      'Deployment.apps "web" is invalid: spec.selector: Required value',
    )
    expect(invalidMessage('Pod', 'p', [b, a, b])).toBe(
      `Pod "p" is invalid: [spec.selector: Required value, metadata.name: Invalid value: "Bad_Name": ${subdomainMsg}]`,
    )
    expect(invalidMessage('Pod', 'p', [])).toBe('Pod "p" is invalid')
    expect(aggregateMessage([b, b])).toBe('spec.selector: Required value')
  })
})

describe('name formats', () => {
  const cases: [string, (v: string, f: string) => FieldCause[], string, string[]][] = [
    ['subdomain ok', validateDns1123Subdomain, 'web.example.com', []],
    ['subdomain upper', validateDns1123Subdomain, 'Bad_Name', [subdomainMsg]],
    ['subdomain trailing dash', validateDns1123Subdomain, 'web-', [subdomainMsg]],
    [
      'subdomain too long',
      validateDns1123Subdomain,
      'a'.repeat(254),
      ['must be no more than 253 characters'],
    ],
    [
      'subdomain too long and bad',
      validateDns1123Subdomain,
      'A'.repeat(254),
      ['must be no more than 253 characters', subdomainMsg],
    ],
    ['label ok', validateDns1123Label, '123-abc', []],
    ['label with dots', validateDns1123Label, 'a.b', ['must not contain dots']],
    ['label bad', validateDns1123Label, 'a_b', [labelMsg]],
    [
      'label too long',
      validateDns1123Label,
      'a'.repeat(64),
      ['must be no more than 63 characters'],
    ],
    ['1035 ok', validateDns1035Label, 'my-svc', []],
    ['1035 leading digit', validateDns1035Label, '1svc', [dns1035Msg]],
  ]
  it.each(cases)('%s', (_name, fn, value, want) => {
    const causes = fn(value, 'metadata.name')
    expect(causes.map((c) => c.message)).toEqual(want)
    for (const c of causes) {
      expect(c.field).toBe('metadata.name')
      expect(c.reason).toBe('FieldValueInvalid')
      expect(c.value).toBe(value)
    }
  })
})

describe('validateLabels', () => {
  const cases: [string, Record<string, string>, string[]][] = [
    ['valid', { app: 'web', 'example.com/tier': 'Front_end.1', 'a.b/c': '' }, []],
    [
      'empty prefix',
      { '/a': 'x' },
      ['metadata.labels: Invalid value: "/a": prefix part must be non-empty'],
    ],
    [
      'bad prefix',
      { 'Example.com/a': 'x' },
      [`metadata.labels: Invalid value: "Example.com/a": prefix part ${subdomainMsg}`],
    ],
    [
      'empty name',
      { 'example.com/': 'x' },
      [
        `metadata.labels: Invalid value: "example.com/": name part must be non-empty`,
        `metadata.labels: Invalid value: "example.com/": name part ${nameRegexPart}`,
      ],
    ],
    [
      'long name',
      { ['k'.repeat(64)]: 'x' },
      [
        `metadata.labels: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`,
      ],
    ],
    [
      'bad name',
      { 'a b': 'x' },
      [`metadata.labels: Invalid value: "a b": name part ${nameRegexPart}`],
    ],
    [
      'two slashes',
      { 'a/b/c': 'x' },
      [
        `metadata.labels: Invalid value: "a/b/c": a qualified name ${nameRegexPart} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    ],
    ['bad value', { app: '-web' }, [`metadata.labels: Invalid value: "-web": ${labelValueMsg}`]],
    [
      'long value',
      { app: 'v'.repeat(64) },
      [`metadata.labels: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`],
    ],
  ]
  it.each(cases)('%s', (_name, labels, want) => {
    expect(lines(validateLabels(labels, 'metadata.labels'))).toEqual(want)
  })
})

describe('validateAnnotations', () => {
  it('allows any case and values up to the total size', () => {
    expect(
      validateAnnotations(
        {
          'Example.com/Key': 'anything at all: !@#',
          'kubectl.kubernetes.io/last-applied-configuration': '{}',
        },
        'metadata.annotations',
      ),
    ).toEqual([])
    expect(validateAnnotations({ a: 'x'.repeat(256 * 1024 - 1) }, 'metadata.annotations')).toEqual(
      [],
    )
  })
  it('rejects bad keys and oversize totals', () => {
    expect(lines(validateAnnotations({ 'a b': '' }, 'metadata.annotations'))).toEqual([
      `metadata.annotations: Invalid value: "a b": name part ${nameRegexPart}`,
    ])
    const big = validateAnnotations({ a: 'x'.repeat(256 * 1024) }, 'metadata.annotations')
    expect(lines(big)).toEqual([
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ])
    expect(big[0].reason).toBe('FieldValueTooLong')
    // Sizes are counted in UTF-8 bytes.
    expect(validateAnnotations({ a: 'é'.repeat(128 * 1024) }, 'metadata.annotations')).toHaveLength(
      1,
    )
  })
})

describe('validateObjectMeta', () => {
  const cases: [string, string, ObjectMeta, boolean, string[]][] = [
    ['valid deployment', 'Deployment', { name: 'web', namespace: 'default' }, true, []],
    [
      'bad name',
      'Deployment',
      { name: 'Bad_Name', namespace: 'default' },
      true,
      [`metadata.name: Invalid value: "Bad_Name": ${subdomainMsg}`],
    ],
    ['dotted pod name is fine', 'Pod', { name: 'web.v1', namespace: 'default' }, true, []],
    [
      'namespace with dots',
      'Namespace',
      { name: 'team.a' },
      false,
      ['metadata.name: Invalid value: "team.a": must not contain dots'],
    ],
    [
      'service starting with a digit',
      'Service',
      { name: '1web', namespace: 'default' },
      true,
      [`metadata.name: Invalid value: "1web": ${dns1035Msg}`],
    ],
    [
      'statefulset with dots',
      'StatefulSet',
      { name: 'db.v1', namespace: 'default' },
      true,
      ['metadata.name: Invalid value: "db.v1": must not contain dots'],
    ],
    ['cluster role with colons', 'ClusterRole', { name: 'system:controller:x' }, false, []],
    [
      'role with a slash',
      'Role',
      { name: 'a/b', namespace: 'default' },
      true,
      [`metadata.name: Invalid value: "a/b": may not contain '/'`],
    ],
    [
      'missing name',
      'ConfigMap',
      { namespace: 'default' },
      true,
      ['metadata.name: Required value: name or generateName is required'],
    ],
    ['missing namespace', 'ConfigMap', { name: 'c' }, true, ['metadata.namespace: Required value']],
    [
      'bad namespace',
      'ConfigMap',
      { name: 'c', namespace: 'Team' },
      true,
      [`metadata.namespace: Invalid value: "Team": ${labelMsg}`],
    ],
    [
      'namespace on cluster kind',
      'Node',
      { name: 'n1', namespace: 'default' },
      false,
      ['metadata.namespace: Forbidden: not allowed on this type'],
    ],
    [
      'generateName with trailing dash',
      'Pod',
      { generateName: 'web-', name: 'web-x7k2p', namespace: 'default' },
      true,
      [],
    ],
    [
      'bad generateName',
      'Pod',
      { generateName: 'Web-', name: 'web-x7k2p', namespace: 'default' },
      true,
      [`metadata.generateName: Invalid value: "Web-": ${subdomainMsg}`],
    ],
    [
      'negative generation',
      'Pod',
      { name: 'p', namespace: 'd', generation: -1 },
      true,
      ['metadata.generation: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'bad label',
      'Pod',
      { name: 'p', namespace: 'd', labels: { app: 'a b' } },
      true,
      [`metadata.labels: Invalid value: "a b": ${labelValueMsg}`],
    ],
    [
      'owner reference without uid',
      'Pod',
      {
        name: 'p',
        namespace: 'd',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: '' }],
      },
      true,
      ['metadata.ownerReferences.uid: Invalid value: "": uid must not be empty'],
    ],
    [
      'two controllers',
      'Pod',
      {
        name: 'p',
        namespace: 'd',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: true },
        ],
      },
      true,
      [
        'metadata.ownerReferences: Invalid value: []v1.OwnerReference{v1.OwnerReference{APIVersion:"apps/v1", Kind:"ReplicaSet", Name:"a", UID:"1", Controller:(*bool)(0xc000000000), BlockOwnerDeletion:(*bool)(nil)}, v1.OwnerReference{APIVersion:"apps/v1", Kind:"ReplicaSet", Name:"b", UID:"2", Controller:(*bool)(0xc000000000), BlockOwnerDeletion:(*bool)(nil)}}: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b',
      ],
    ],
    [
      'conflicting finalizers',
      'Pod',
      { name: 'p', namespace: 'd', finalizers: ['orphan', 'foregroundDeletion'] },
      true,
      [
        'metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
      ],
    ],
  ]
  it.each(cases)('%s', (_name, kind, meta, namespaced, want) => {
    expect(lines(validateObjectMeta(kind, meta, { namespaced }))).toEqual(want)
  })

  it('knows the name rule of each kind', () => {
    expect(nameRuleForKind('Deployment')).toBe('dns1123-subdomain')
    expect(nameRuleForKind('Namespace')).toBe('dns1123-label')
    expect(nameRuleForKind('Service')).toBe('dns1035-label')
    expect(nameRuleForKind('ClusterRoleBinding')).toBe('path-segment')
    expect(nameRuleForKind('Widget')).toBe('dns1123-subdomain')
  })
})

// ---------------------------------------------------------------------------------------------
// Workloads

function container(overrides: Json = {}): Json {
  return { name: 'web', image: 'nginx:1.27', ...overrides }
}

/** A pod template; `null` labels leaves them out. */
function template(labels: Record<string, string> | null = { app: 'web' }, spec: Json = {}): Json {
  return { metadata: labels ? { labels } : {}, spec: { containers: [container()], ...spec } }
}

function obj(kind: string, spec: Json, extra: Json = {}): KubeObject {
  return { kind, metadata: { name: 'x', namespace: 'default' }, spec, ...extra }
}

const selector = { matchLabels: { app: 'web' } }

describe('validateWorkload: pods and pod templates', () => {
  const cases: [string, KubeObject, string[]][] = [
    ['valid pod', obj('Pod', { containers: [container({ ports: [{ containerPort: 80 }] })] }), []],
    ['pod without containers', obj('Pod', {}), ['spec.containers: Required value']],
    [
      'pod with empty containers',
      obj('Pod', { containers: [] }),
      ['spec.containers: Required value'],
    ],
    [
      'pod without spec',
      { kind: 'Pod', metadata: { name: 'p' } },
      ['spec.containers: Required value'],
    ],
    [
      'container without name or image',
      obj('Pod', { containers: [{}] }),
      ['spec.containers[0].name: Required value', 'spec.containers[0].image: Required value'],
    ],
    [
      'bad container name',
      obj('Pod', { containers: [container({ name: 'Web_1' })] }),
      [`spec.containers[0].name: Invalid value: "Web_1": ${labelMsg}`],
    ],
    [
      'duplicate container names',
      obj('Pod', { containers: [container({ name: 'x' }), container({ name: 'x' })] }),
      ['spec.containers[1].name: Duplicate value: "x"'],
    ],
    [
      'ports',
      obj('Pod', {
        containers: [
          container({
            ports: [
              { containerPort: 0 },
              { containerPort: 70000, hostPort: -1 },
              { containerPort: 80, protocol: 'ICMP', name: 'http' },
              { containerPort: 81, name: 'http' },
              { containerPort: 82, name: 'HTTP' },
            ],
          }),
        ],
      }),
      [
        'spec.containers[0].ports[0].containerPort: Required value',
        'spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[2].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
        'spec.containers[0].ports[3].name: Duplicate value: "http"',
        'spec.containers[0].ports[4].name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.containers[0].ports[4].name: Invalid value: "HTTP": must contain at least one letter (a-z)',
      ],
    ],
    [
      'host port conflicts',
      obj('Pod', {
        containers: [
          container({ name: 'a', ports: [{ containerPort: 80, hostPort: 8080 }] }),
          container({ name: 'b', ports: [{ containerPort: 81, hostPort: 8080 }] }),
        ],
      }),
      ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"'],
    ],
    [
      'restartPolicy',
      obj('Pod', { containers: [container()], restartPolicy: 'Sometimes' }),
      [
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      ],
    ],
    [
      'enums on containers and pod',
      obj('Pod', {
        containers: [container({ imagePullPolicy: 'Maybe', terminationMessagePolicy: 'Tail' })],
        dnsPolicy: 'Google',
      }),
      [
        'spec.containers[0].terminationMessagePolicy: Unsupported value: "Tail": supported values: "File", "FallbackToLogsOnError"',
        'spec.containers[0].imagePullPolicy: Unsupported value: "Maybe": supported values: "Always", "IfNotPresent", "Never"',
        'spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      ],
    ],
    [
      'restartPolicy on a container',
      obj('Pod', { containers: [container({ restartPolicy: 'Always' })] }),
      ['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers'],
    ],
    [
      'init containers',
      obj('Pod', {
        containers: [container()],
        initContainers: [container({ restartPolicy: 'Never' }), { name: 'init' }],
      }),
      [
        'spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"',
        'spec.initContainers[0].name: Duplicate value: "web"',
        'spec.initContainers[1].image: Required value',
      ],
    ],
    [
      'other pod fields',
      obj('Pod', {
        containers: [container()],
        nodeSelector: { 'a b': 'x' },
        serviceAccountName: 'SA',
        nodeName: 'Node_1',
        activeDeadlineSeconds: 0,
        hostname: 'a.b',
      }),
      [
        `spec.nodeSelector: Invalid value: "a b": name part ${nameRegexPart}`,
        `spec.serviceAccountName: Invalid value: "SA": ${subdomainMsg}`,
        `spec.nodeName: Invalid value: "Node_1": ${subdomainMsg}`,
        'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
        'spec.hostname: Invalid value: "a.b": must not contain dots',
      ],
    ],
    [
      'pod template',
      {
        kind: 'PodTemplate',
        metadata: { name: 't' },
        template: { metadata: { labels: { a: '-' } }, spec: {} },
      },
      [
        `template.labels: Invalid value: "-": ${labelValueMsg}`,
        'template.spec.containers: Required value',
      ],
    ],
  ]
  it.each(cases)('%s', (_name, o, want) => {
    expect(lines(validateWorkload(o.kind!, o))).toEqual(want)
  })
})

describe('validateWorkload: controllers', () => {
  const cases: [string, KubeObject, string[]][] = [
    ['valid deployment', obj('Deployment', { replicas: 3, selector, template: template() }), []],
    [
      'deployment without containers',
      obj('Deployment', { selector, template: template({ app: 'web' }, { containers: [] }) }),
      ['spec.template.spec.containers: Required value'],
    ],
    [
      'deployment without template labels',
      obj('Deployment', { selector, template: template(null) }),
      [
        'spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`',
      ],
    ],
    [
      'deployment without selector',
      obj('Deployment', { template: template({ app: 'x' }) }),
      [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'deployment with a selector that misses the labels',
      obj('Deployment', {
        selector: { matchLabels: { app: 'web', tier: 'fe' } },
        template: template({ tier: 'fe', app: 'api' }),
      }),
      [
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"api", "tier":"fe"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'deployment with an empty selector',
      obj('Deployment', { selector: {}, template: template() }),
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    ],
    [
      'deployment with a bad selector expression',
      obj('Deployment', {
        selector: { matchExpressions: [{ key: 'app', operator: 'In' }] },
        template: template(),
      }),
      [
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"In", Values:[]string(nil)}}}: invalid label selector',
      ],
    ],
    [
      'deployment with an unknown operator',
      obj('Deployment', {
        selector: { matchExpressions: [{ key: 'app', operator: 'Has', values: ['web'] }] },
        template: template(),
      }),
      [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Has": not a valid selector operator',
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Has", Values:[]string{"web"}}}}: invalid label selector',
      ],
    ],
    [
      'deployment with negative replicas',
      obj('Deployment', { replicas: -1, selector, template: template() }),
      ['spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'deployment with a bad container',
      obj('Deployment', {
        selector,
        template: template({ app: 'web' }, { containers: [{ name: 'Web' }] }),
      }),
      [
        `spec.template.spec.containers[0].name: Invalid value: "Web": ${labelMsg}`,
        'spec.template.spec.containers[0].image: Required value',
      ],
    ],
    [
      'deployment pods must restart',
      obj('Deployment', {
        selector,
        template: template({ app: 'web' }, { restartPolicy: 'OnFailure' }),
      }),
      [
        'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      ],
    ],
    [
      'deployment template labels',
      obj('Deployment', { selector, template: template({ app: 'web', 'bad key': 'x' }) }),
      [`spec.template.labels: Invalid value: "bad key": name part ${nameRegexPart}`],
    ],
    [
      'deployment strategy type',
      obj('Deployment', { selector, template: template(), strategy: { type: 'BlueGreen' } }),
      [
        'spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"BlueGreen", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
      ],
    ],
    [
      'deployment recreate with rolling update',
      obj('Deployment', {
        selector,
        template: template(),
        strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } },
      }),
      [
        "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
      ],
    ],
    [
      'deployment maxSurge and maxUnavailable both 0',
      obj('Deployment', {
        selector,
        template: template(),
        strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } },
      }),
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
      ],
    ],
    [
      'deployment maxSurge and maxUnavailable both 0%',
      obj('Deployment', {
        selector,
        template: template(),
        strategy: {
          type: 'RollingUpdate',
          rollingUpdate: { maxSurge: '0%', maxUnavailable: '0%' },
        },
      }),
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: may not be 0 when `maxSurge` is 0',
      ],
    ],
    [
      'deployment maxSurge 0 with default maxUnavailable',
      obj('Deployment', {
        selector,
        template: template(),
        strategy: { rollingUpdate: { maxSurge: 0 } },
      }),
      [],
    ],
    [
      'deployment bad rolling update values',
      obj('Deployment', {
        selector,
        template: template(),
        strategy: { rollingUpdate: { maxSurge: '20 percent', maxUnavailable: '110%' } },
      }),
      [
        "spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"20 percent\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}: must not be greater than 100%',
      ],
    ],
    [
      'deployment negative maxUnavailable',
      obj('Deployment', {
        selector,
        template: template(),
        strategy: { rollingUpdate: { maxUnavailable: -1 } },
      }),
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'deployment progress deadline',
      obj('Deployment', {
        selector,
        template: template(),
        minReadySeconds: 30,
        progressDeadlineSeconds: 30,
        revisionHistoryLimit: -1,
      }),
      [
        'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
        'spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds',
      ],
    ],
    ['valid replicaset', obj('ReplicaSet', { replicas: 1, selector, template: template() }), []],
    [
      'replicaset without selector',
      obj('ReplicaSet', { replicas: -2, template: template() }),
      [
        'spec.replicas: Invalid value: -2: must be greater than or equal to 0',
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'replicaset with an empty selector uses the deployment wording',
      obj('ReplicaSet', { selector: { matchLabels: {} }, template: template() }),
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    ],
    ['valid daemonset', obj('DaemonSet', { selector, template: template() }), []],
    [
      'daemonset without selector reports only the mismatch',
      obj('DaemonSet', { template: template() }),
      [
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'daemonset rolling update',
      obj('DaemonSet', {
        selector,
        template: template(),
        updateStrategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } },
      }),
      [
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
      ],
    ],
    [
      'daemonset surge with unavailable',
      obj('DaemonSet', {
        selector,
        template: template(),
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '10%' } },
      }),
      [
        'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"10%"}: may not be set when maxUnavailable is non-zero',
      ],
    ],
    [
      'daemonset strategy type',
      obj('DaemonSet', { selector, template: template(), updateStrategy: { type: 'Canary' } }),
      [
        'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Canary", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
      ],
    ],
    [
      'valid statefulset',
      obj('StatefulSet', { serviceName: 'db', selector, template: template() }),
      [],
    ],
    [
      'statefulset without selector',
      obj('StatefulSet', { template: template() }),
      [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    // Upstream leaves a StatefulSet's containers to pod creation.
    [
      'statefulset containers are not validated',
      obj('StatefulSet', { selector, template: template({ app: 'web' }, { containers: [] }) }),
      [],
    ],
    [
      'statefulset policies',
      obj('StatefulSet', {
        replicas: -1,
        selector,
        template: template(),
        podManagementPolicy: 'Random',
        updateStrategy: { type: 'Sometimes' },
      }),
      [
        "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
        "spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:\"Sometimes\", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be 'RollingUpdate' or 'OnDelete'",
        'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'statefulset empty selector',
      obj('StatefulSet', { selector: {}, template: template() }),
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset',
      ],
    ],
    [
      'valid replication controller',
      obj('ReplicationController', { replicas: 1, template: template() }),
      [],
    ],
    [
      'replication controller without template',
      obj('ReplicationController', { selector: { app: 'web' } }),
      ['spec.template: Required value'],
    ],
    [
      'replication controller without any labels',
      obj('ReplicationController', { template: template(null) }),
      ['spec.selector: Required value'],
    ],
  ]
  it.each(cases)('%s', (_name, o, want) => {
    expect(lines(validateWorkload(o.kind!, o))).toEqual(want)
  })
})

describe('validateWorkload: jobs', () => {
  const jobLabels = {
    'batch.kubernetes.io/controller-uid': 'u1',
    'batch.kubernetes.io/job-name': 'pi',
    'controller-uid': 'u1',
    'job-name': 'pi',
  }
  const generated = { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } }
  const job = (spec: Json): KubeObject => ({
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'default', uid: 'u1' },
    spec,
  })
  const cases: [string, KubeObject, string[]][] = [
    [
      'valid generated job',
      job({ selector: generated, template: template(jobLabels, { restartPolicy: 'Never' }) }),
      [],
    ],
    [
      'valid manual job',
      job({
        manualSelector: true,
        selector,
        template: template({ app: 'web' }, { restartPolicy: 'OnFailure' }),
      }),
      [],
    ],
    [
      'job without restart policy or selector',
      job({ template: template({ app: 'web' }) }),
      [
        'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'job with restart Always',
      job({
        manualSelector: true,
        selector,
        template: template({ app: 'web' }, { restartPolicy: 'Always' }),
      }),
      ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    ],
    [
      'job with an unknown restart policy',
      job({
        manualSelector: true,
        selector,
        template: template({ app: 'web' }, { restartPolicy: 'Sometimes' }),
      }),
      // The pod spec and the Job each reject it, with their own lists.
      [
        'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"',
      ],
    ],
    [
      'job counts',
      job({
        manualSelector: true,
        selector,
        parallelism: -1,
        completions: -1,
        backoffLimit: -1,
        template: template({ app: 'web' }, { restartPolicy: 'Never' }),
      }),
      [
        'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
        'spec.completions: Invalid value: -1: must be greater than or equal to 0',
        'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'generated selector without the generated labels',
      job({
        selector: generated,
        template: template(
          {
            'batch.kubernetes.io/controller-uid': 'u1',
            'batch.kubernetes.io/job-name': 'pi',
            'job-name': 'other',
          },
          { restartPolicy: 'Never' },
        ),
      }),
      [
        "spec.template.metadata.labels[controller-uid]: Required value: must be 'u1'",
        `spec.template.metadata.labels[job-name]: Invalid value: map[string]string{"batch.kubernetes.io/controller-uid":"u1", "batch.kubernetes.io/job-name":"pi", "job-name":"other"}: must be 'pi'`,
      ],
    ],
    [
      'cronjob',
      {
        kind: 'CronJob',
        metadata: { name: 'c'.repeat(53) },
        spec: {
          concurrencyPolicy: 'Never',
          jobTemplate: { spec: { selector, template: template() } },
        },
      },
      [
        'spec.schedule: Required value',
        'spec.concurrencyPolicy: Unsupported value: "Never": supported values: "Allow", "Forbid", "Replace"',
        'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
        'spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
        `metadata.name: Invalid value: "${'c'.repeat(53)}": must be no more than 52 characters`,
      ],
    ],
    [
      'valid cronjob',
      {
        kind: 'CronJob',
        metadata: { name: 'c' },
        spec: {
          schedule: '*/5 * * * *',
          jobTemplate: {
            spec: { template: template({ app: 'x' }, { restartPolicy: 'OnFailure' }) },
          },
        },
      },
      [],
    ],
  ]
  it.each(cases)('%s', (_name, o, want) => {
    expect(lines(validateWorkload(o.kind!, o))).toEqual(want)
  })

  it('reports a missing uid once the selector is generated', () => {
    const o: KubeObject = {
      kind: 'Job',
      metadata: { name: 'pi' },
      spec: {
        selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': '' } },
        template: template(
          {
            'batch.kubernetes.io/controller-uid': '',
            'batch.kubernetes.io/job-name': 'pi',
            'controller-uid': '',
            'job-name': 'pi',
          },
          { restartPolicy: 'Never' },
        ),
      },
    }
    expect(lines(validateWorkload('Job', o))).toEqual(['metadata.uid: Required value'])
  })
})

describe('validateWorkload: services, configmaps, secrets', () => {
  const svc = (spec: Json): KubeObject => ({
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec,
  })
  const cases: [string, KubeObject, string[]][] = [
    [
      'valid service',
      svc({ selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] }),
      [],
    ],
    ['named target port', svc({ ports: [{ port: 80, targetPort: 'http' }] }), []],
    ['service without ports', svc({ selector: { app: 'web' } }), ['spec.ports: Required value']],
    ['headless service without ports', svc({ clusterIP: 'None' }), []],
    [
      'service port problems',
      svc({
        type: 'Magic',
        ports: [
          { port: 0 },
          { name: 'HTTP', port: 70000, protocol: 'HTTP', targetPort: 'Not_A_Name' },
        ],
      }),
      [
        'spec.ports[0].name: Required value',
        'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
        `spec.ports[1].name: Invalid value: "HTTP": ${labelMsg}`,
        'spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
        'spec.ports[1].targetPort: Invalid value: "Not_A_Name": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ],
    ],
    [
      'duplicate ports',
      svc({
        ports: [
          { name: 'a', port: 80 },
          { name: 'a', port: 80, protocol: 'TCP' },
        ],
      }),
      [
        'spec.ports[1].name: Duplicate value: "a"',
        'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
      ],
    ],
    [
      'nodePort on ClusterIP',
      svc({ ports: [{ port: 80, nodePort: 30080 }] }),
      ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
    ],
    ['external name', svc({ type: 'ExternalName', externalName: 'db.example.com.' }), []],
    ['external name missing', svc({ type: 'ExternalName' }), ['spec.externalName: Required value']],
    [
      'session affinity',
      svc({ ports: [{ port: 80 }], sessionAffinity: 'Sticky' }),
      ['spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"'],
    ],
    [
      'headless load balancer',
      svc({ type: 'LoadBalancer', clusterIP: 'None', ports: [{ port: 80 }] }),
      [
        'spec.clusterIPs[0]: Invalid value: "None": may not be set to \'None\' for LoadBalancer services',
      ],
    ],
    [
      'valid configmap',
      {
        kind: 'ConfigMap',
        metadata: { name: 'c' },
        data: { 'app.properties': 'a=b', KEY_1: 'v', 'key-2': '' },
      },
      [],
    ],
    [
      'configmap keys',
      {
        kind: 'ConfigMap',
        metadata: { name: 'c' },
        data: { 'bad key': 'v', '..hidden': 'v', dup: 'x' },
        binaryData: { dup: 'eA==', 'a/b': 'eA==' },
      },
      [
        `data[bad key]: Invalid value: "bad key": ${configKeyMsg}`,
        `data[..hidden]: Invalid value: "..hidden": must not start with '..'`,
        'data[dup]: Invalid value: "dup": duplicate of key present in binaryData',
        `binaryData[a/b]: Invalid value: "a/b": ${configKeyMsg}`,
      ],
    ],
    [
      'configmap too large',
      { kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'x'.repeat(1024 * 1024 + 1) } },
      [': Too long: may not be more than 1048576 bytes'],
    ],
    [
      'valid secret',
      {
        kind: 'Secret',
        metadata: { name: 's' },
        type: 'Opaque',
        data: { password: 'cGFzcw==' },
        stringData: { user: 'admin' },
      },
      [],
    ],
    [
      'secret keys, including stringData',
      {
        kind: 'Secret',
        metadata: { name: 's' },
        data: { 'a b': 'eA==' },
        stringData: { '.': 'x' },
      },
      [
        `data[a b]: Invalid value: "a b": ${configKeyMsg}`,
        `data[.]: Invalid value: ".": must not be '.'`,
      ],
    ],
    [
      'tls secret',
      {
        kind: 'Secret',
        metadata: { name: 's' },
        type: 'kubernetes.io/tls',
        data: { 'tls.crt': 'eA==' },
      },
      ['data[tls.key]: Required value'],
    ],
    [
      'dockerconfigjson secret',
      { kind: 'Secret', metadata: { name: 's' }, type: 'kubernetes.io/dockerconfigjson', data: {} },
      ['data[.dockerconfigjson]: Required value'],
    ],
    [
      'unknown kinds have no rules',
      { kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 7 } },
      [],
    ],
  ]
  it.each(cases)('%s', (_name, o, want) => {
    expect(lines(validateWorkload(o.kind!, o))).toEqual(want)
  })

  it('carries reasons and values for StatusCause', () => {
    const [c] = validateWorkload(
      'Deployment',
      obj('Deployment', { replicas: -1, selector, template: template() }),
    )
    expect(c).toEqual({
      field: 'spec.replicas',
      reason: 'FieldValueInvalid',
      message: 'must be greater than or equal to 0',
      value: -1,
    })
    expect(toStatusCause(c)).toEqual({
      field: 'spec.replicas',
      reason: 'FieldValueInvalid',
      message: 'Invalid value: -1: must be greater than or equal to 0',
    })
    const [d] = validateWorkload(
      'Pod',
      obj('Pod', { containers: [container({ name: 'x' }), container({ name: 'x' })] }),
    )
    expect(d.reason).toBe('FieldValueDuplicate')
    const [n] = validateWorkload(
      'Pod',
      obj('Pod', { containers: [container()], restartPolicy: 'No' }),
    )
    expect(n.reason).toBe('FieldValueNotSupported')
  })

  it('validates a metav1 label selector on its own', () => {
    expect(
      lines(
        validateMetaLabelSelector(
          {
            matchLabels: { app: '-' },
            matchExpressions: [
              { key: 'a', operator: 'Exists', values: ['x'] },
              { key: 'b b', operator: 'NotIn', values: ['ok', 'not ok'] },
            ],
          },
          'spec.selector',
        ),
      ),
    ).toEqual([
      `spec.selector.matchLabels: Invalid value: "-": ${labelValueMsg}`,
      "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      `spec.selector.matchExpressions[1].key: Invalid value: "b b": name part ${nameRegexPart}`,
      `spec.selector.matchExpressions[1].values[1]: Invalid value: "not ok": ${labelValueMsg}`,
    ])
  })
})
