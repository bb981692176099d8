import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  decodeProtobufBody,
  ProtobufError,
  UnsupportedProtobufKind,
} from '../../../../src/apimachinery/protobuf'

/** Bodies captured from kubectl v1.32 create generators, `create token` and `auth can-i|whoami`. */
const fixture = (name: string) =>
  decodeProtobufBody(
    Buffer.from(
      readFileSync(new URL(`../../fixtures/protobuf/${name}.b64`, import.meta.url), 'utf8').trim(),
      'base64',
    ),
  )

// A minimal encoder, so fields kubectl's generators never fill can be tested too.
const varint = (n: bigint | number): number[] => {
  let v = BigInt.asUintN(64, BigInt(n))
  const out: number[] = []
  do {
    const b = Number(v & 0x7fn)
    v >>= 7n
    out.push(v ? b | 0x80 : b)
  } while (v)
  return out
}
const bytes = (field: number, data: number[] | string) => {
  const raw = typeof data === 'string' ? [...Buffer.from(data)] : data
  return [...varint((field << 3) | 2), ...varint(raw.length), ...raw]
}
const num = (field: number, n: bigint | number) => [...varint(field << 3), ...varint(n)]
const envelope = (apiVersion: string, kind: string, raw: number[]) =>
  new Uint8Array([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...bytes(1, [...bytes(1, apiVersion), ...bytes(2, kind)]),
    ...bytes(2, raw),
    ...bytes(3, ''),
    ...bytes(4, ''),
  ])

describe('protobuf bodies from kubectl create', () => {
  it('decodes a namespace', () => {
    expect(fixture('namespace')).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a', creationTimestamp: null },
      spec: {},
      status: {},
    })
  })

  it('decodes configmaps, with binaryData as base64', () => {
    expect(fixture('configmap')).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', creationTimestamp: null },
      data: { a: 'b', x: 'yz' },
    })
    expect(fixture('configmap-binary')).toMatchObject({
      data: { t: 'x' },
      binaryData: { b: Buffer.from([0, 1, 0xff]).toString('base64') },
    })
  })

  it('decodes secrets, with data bytes as base64 strings', () => {
    expect(fixture('secret-generic')).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', creationTimestamp: null },
      data: { k: Buffer.from('v').toString('base64') },
    })
    const docker = fixture('secret-docker-registry') as any
    expect(docker.type).toBe('kubernetes.io/dockerconfigjson')
    expect(JSON.parse(Buffer.from(docker.data['.dockerconfigjson'], 'base64').toString())).toEqual({
      auths: { 'r.io': { username: 'u', password: 'p', auth: 'dTpw' } },
    })
  })

  it('decodes a deployment with its pod template', () => {
    expect(fixture('deployment')).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', creationTimestamp: null, labels: { app: 'd' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'd' } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'd' } },
          spec: {
            containers: [
              { name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }], resources: {} },
            ],
          },
        },
        strategy: {},
      },
      status: {},
    })
    expect(
      (fixture('deployment-two-images') as any).spec.template.spec.containers.map(
        (c: any) => c.image,
      ),
    ).toEqual(['nginx', 'redis'])
  })

  it('decodes a job and a cronjob', () => {
    expect(fixture('job')).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', creationTimestamp: null },
      spec: {
        template: {
          metadata: { creationTimestamp: null },
          spec: {
            containers: [{ name: 'j', image: 'busybox', command: ['echo', 'hi'], resources: {} }],
            restartPolicy: 'Never',
          },
        },
      },
      status: {},
    })
    expect(fixture('cronjob')).toEqual({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cj', creationTimestamp: null },
      spec: {
        schedule: '*/5 * * * *',
        jobTemplate: {
          metadata: { name: 'cj', creationTimestamp: null },
          spec: {
            template: {
              metadata: { creationTimestamp: null },
              spec: {
                containers: [{ name: 'cj', image: 'busybox', command: ['date'], resources: {} }],
                restartPolicy: 'OnFailure',
              },
            },
          },
        },
      },
      status: {},
    })
  })

  it('decodes a service account and services', () => {
    expect(fixture('serviceaccount')).toEqual({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'sa', creationTimestamp: null },
    })
    expect(fixture('service-clusterip')).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'svc', creationTimestamp: null, labels: { app: 'svc' } },
      spec: {
        ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }],
        selector: { app: 'svc' },
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    })
    expect((fixture('service-nodeport') as any).spec).toMatchObject({
      type: 'NodePort',
      ports: [{ nodePort: 30080 }],
    })
  })

  it('decodes token, access and identity reviews', () => {
    expect(fixture('tokenrequest')).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { creationTimestamp: null },
      spec: {},
      status: { token: '' },
    })
    expect(fixture('selfsubjectaccessreview')).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } },
      status: { allowed: false },
    })
    expect(fixture('selfsubjectreview')).toEqual({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: { creationTimestamp: null },
      status: {},
    })
  })
})

describe('protobuf field kinds', () => {
  it('decodes DeleteOptions, keeping a zero grace period', () => {
    const raw = [
      ...num(1, 0),
      ...bytes(2, [...bytes(1, 'u-1'), ...bytes(2, '42')]),
      ...bytes(4, 'Foreground'),
      ...bytes(5, 'All'),
    ]
    expect(decodeProtobufBody(envelope('v1', 'DeleteOptions', raw))).toEqual({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u-1', resourceVersion: '42' },
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    })
    const eviction = decodeProtobufBody(
      envelope('policy/v1', 'Eviction', [...bytes(1, bytes(1, 'p')), ...bytes(2, num(1, 30))]),
    )
    expect(eviction).toEqual({
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'p' },
      deleteOptions: { gracePeriodSeconds: 30 },
    })
  })

  it('decodes times, quantities, string IntOrStrings, negative numbers and owner references', () => {
    const meta = [
      ...bytes(1, 'x'),
      ...bytes(8, [...num(1, 1700000000), ...num(2, 5)]),
      ...num(10, -1),
      ...bytes(13, [
        ...bytes(5, 'apps/v1'),
        ...bytes(1, 'ReplicaSet'),
        ...bytes(3, 'rs'),
        ...bytes(4, 'u'),
        ...num(6, 1),
      ]),
      ...bytes(14, 'f'),
      ...bytes(99, 'an unknown field'),
    ]
    const container = [
      ...bytes(1, 'c'),
      ...bytes(8, [
        ...bytes(1, [...bytes(1, 'cpu'), ...bytes(2, bytes(1, '500m'))]),
        ...bytes(2, bytes(1, 'memory')),
      ]),
    ]
    const spec = [
      ...num(1, 0),
      ...bytes(3, bytes(2, [...bytes(2, container), ...num(4, 30)])),
      ...bytes(4, [
        ...bytes(1, 'RollingUpdate'),
        ...bytes(2, [...bytes(1, [...num(1, 1), ...bytes(3, '25%')]), ...bytes(2, num(2, 1))]),
      ]),
    ]
    expect(
      decodeProtobufBody(envelope('apps/v1', 'Deployment', [...bytes(1, meta), ...bytes(2, spec)])),
    ).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'x',
        creationTimestamp: '2023-11-14T22:13:20Z',
        deletionGracePeriodSeconds: -1,
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u', controller: true },
        ],
        finalizers: ['f'],
      },
      spec: {
        replicas: 0,
        template: {
          spec: {
            containers: [
              { name: 'c', resources: { limits: { cpu: '500m' }, requests: { memory: '0' } } },
            ],
            terminationGracePeriodSeconds: 30,
          },
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
      },
    })
  })

  it('flattens embedded structs and decodes env sources', () => {
    const env = [
      ...bytes(1, 'A'),
      ...bytes(3, bytes(4, [...bytes(1, bytes(1, 'sec')), ...bytes(2, 'key')])),
    ]
    const pod = [
      ...bytes(2, [...bytes(1, 'c'), ...bytes(7, env)]),
      ...bytes(1, [...bytes(1, 'v'), ...bytes(2, bytes(19, bytes(1, bytes(1, 'cm'))))]),
    ]
    const job = decodeProtobufBody(
      envelope('batch/v1', 'Job', bytes(2, bytes(6, bytes(2, pod)))),
    ) as any
    expect(job.spec.template.spec).toEqual({
      containers: [
        {
          name: 'c',
          env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'sec', key: 'key' } } }],
        },
      ],
      volumes: [{ name: 'v', configMap: { name: 'cm' } }],
    })
  })

  it('rejects kinds it does not decode and malformed bodies', () => {
    expect(() => decodeProtobufBody(envelope('example.com/v1', 'Widget', []))).toThrow(
      UnsupportedProtobufKind,
    )
    expect(() => decodeProtobufBody(new Uint8Array([0x6b, 0x38, 0x73, 0x00]))).toThrow(
      UnsupportedProtobufKind,
    )
    expect(() => decodeProtobufBody(new TextEncoder().encode('{}'))).toThrow(ProtobufError)
    const truncated = envelope('v1', 'Namespace', bytes(1, bytes(1, 'name'))).slice(0, -6)
    expect(() => decodeProtobufBody(truncated)).toThrow(ProtobufError)
  })
})
