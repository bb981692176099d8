import { describe, it, expect } from 'vitest'
import { parse } from 'yaml'
import { kindStruct, schemas } from '../../../../src/apis/schema'
import { checkDecode } from '../../../../src/apis/schema/typed-decode'
import { podManifest } from '../../../helpers'

/** The decoder's verdict on a manifest, found through its apiVersion/kind like the server does. */
function decode(manifest: Record<string, unknown>) {
  const [g, v] = String(manifest.apiVersion).includes('/')
    ? String(manifest.apiVersion).split('/')
    : ['', String(manifest.apiVersion)]
  const struct = kindStruct(g!, v!, String(manifest.kind))
  if (struct === undefined) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`)
  return checkDecode(manifest, struct, schemas)
}

const typeErrorOf = (manifest: Record<string, unknown>) => decode(manifest).typeError

/** A Deployment whose first container gets `container` merged in, and whose spec gets `spec`. */
function deployment(container: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'ap', labels: { app: 'ap' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'ap' } },
      template: {
        metadata: { labels: { app: 'ap' } },
        spec: { containers: [{ name: 'a', image: 'nginx:1', ...container }] },
      },
      ...spec,
    },
  }
}

describe('type checking of built-in kinds, as kube-apiserver decodes JSON', () => {
  it('refuses the boolean a YAML 1.1 `name: y` becomes, naming the struct and the field path', () => {
    // kubectl reads YAML 1.1: `name: Y` is sent as "name": true
    const manifest = parse(`
apiVersion: apps/v1
kind: Deployment
metadata: { name: ap }
spec:
  selector: { matchLabels: { app: ap } }
  template:
    metadata: { labels: { app: ap } }
    spec:
      containers:
        - name: a
          image: nginx:1
          env: [{ name: EX, value: "1" }, { name: true, value: "2" }]
`) as Record<string, unknown>
    expect(typeErrorOf(manifest)).toBe(
      'json: cannot unmarshal bool into Go struct field EnvVar.spec.template.spec.containers.env.name of type string',
    )
  })

  it('accepts well-typed objects, nulls included', () => {
    expect(
      decode(
        deployment(
          {
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            resources: { limits: { cpu: '500m', memory: 128 } },
          },
          { strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } } },
        ),
      ),
    ).toEqual({ unknown: [] })
    expect(
      typeErrorOf(deployment({ env: null, args: null }, { replicas: null, strategy: null })),
    ).toBeUndefined()
    expect(
      typeErrorOf({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', creationTimestamp: null },
        spec: { terminationGracePeriodSeconds: 2 ** 40, containers: [{ name: 'a', image: 'x' }] },
      }),
    ).toBeUndefined()
  })

  it('takes a property set to undefined (an object a controller built, sent without JSON) as absent', () => {
    const built = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'p', resourceVersion: undefined },
      reason: 'R',
      unknownButUnset: undefined,
    }
    expect(decode(built)).toEqual({ unknown: [] })
  })

  it('words each JSON type mismatch as Go does', () => {
    expect(typeErrorOf(deployment({}, { replicas: '3' }))).toBe(
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    )
    expect(typeErrorOf(deployment({ image: 5 }))).toBe(
      'json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.image of type string',
    )
    expect(typeErrorOf(deployment({ stdin: 'yes' }))).toBe(
      'json: cannot unmarshal string into Go struct field Container.spec.template.spec.containers.stdin of type bool',
    )
    expect(typeErrorOf(deployment({ env: { name: 'x' } }))).toBe(
      'json: cannot unmarshal object into Go struct field Container.spec.template.spec.containers.env of type []v1.EnvVar',
    )
    expect(typeErrorOf(deployment({ env: ['x'] }))).toBe(
      'json: cannot unmarshal string into Go struct field Container.spec.template.spec.containers.env of type v1.EnvVar',
    )
    expect(typeErrorOf(deployment({}, { template: [] }))).toBe(
      'json: cannot unmarshal array into Go struct field DeploymentSpec.spec.template of type v1.PodTemplateSpec',
    )
    expect(
      typeErrorOf({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', labels: { a: 1 } },
      }),
    ).toBe(
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    )
    expect(
      typeErrorOf({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c' },
        data: { a: true },
      }),
    ).toBe('json: cannot unmarshal bool into Go struct field ConfigMap.data of type string')
    expect(
      typeErrorOf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: 'a=b' }),
    ).toBe(
      'json: cannot unmarshal string into Go struct field ConfigMap.data of type map[string]string',
    )
  })

  it('holds integers to their Go width', () => {
    expect(typeErrorOf(deployment({}, { replicas: 1.5 }))).toBe(
      'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
    )
    expect(typeErrorOf(deployment({}, { replicas: 2 ** 31 }))).toBe(
      'json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32',
    )
    expect(typeErrorOf(deployment({}, { replicas: -(2 ** 31) }))).toBeUndefined()
    const withGrace = (grace: unknown) =>
      podManifest('p', { spec: { terminationGracePeriodSeconds: grace } })
    expect(typeErrorOf(withGrace(2 ** 62))).toBeUndefined()
    expect(typeErrorOf(withGrace('30'))).toBe(
      'json: cannot unmarshal string into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64',
    )
  })

  it('takes an IntOrString as a string or an int32 only', () => {
    const surge = (maxSurge: unknown) =>
      deployment({}, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge } } })
    expect(typeErrorOf(surge(1))).toBeUndefined()
    expect(typeErrorOf(surge('30%'))).toBeUndefined()
    expect(typeErrorOf(surge(true))).toBe('json: cannot unmarshal bool into Go value of type int32')
    expect(typeErrorOf(surge(0.5))).toBe(
      'json: cannot unmarshal number 0.5 into Go value of type int32',
    )
    const service = (targetPort: unknown) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ port: 80, targetPort }] },
    })
    expect(typeErrorOf(service('http'))).toBeUndefined()
    expect(typeErrorOf(service({ port: 80 }))).toBe(
      'json: cannot unmarshal object into Go value of type int32',
    )
    expect(
      typeErrorOf({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's' },
        spec: { ports: [{ port: '80' }] },
      }),
    ).toBe(
      'json: cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32',
    )
  })

  it('parses quantities as resource.Quantity does', () => {
    const limits = (cpu: unknown) => deployment({ resources: { limits: { cpu } } })
    expect(typeErrorOf(limits(2))).toBeUndefined()
    expect(typeErrorOf(limits('1.5Gi'))).toBeUndefined()
    const wrong =
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
    expect(typeErrorOf(limits(true))).toBe(wrong)
    expect(typeErrorOf(limits('lots'))).toBe(wrong)
    expect(typeErrorOf(limits('5Xi'))).toBe("unable to parse quantity's suffix")
  })

  it('reports the first type error in document order, and unknown fields beside it', () => {
    const res = decode(deployment({ imagee: 'x', image: false, stdin: 1 }))
    expect(res.typeError).toBe(
      'json: cannot unmarshal bool into Go struct field Container.spec.template.spec.containers.image of type string',
    )
    expect(res.unknown).toEqual(['spec.template.spec.containers[0].imagee'])
  })

  it('decodes []byte as base64 the way Go does, reporting the byte it refuses', () => {
    const secret = (data: unknown) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { a: data },
    })
    for (const ok of ['', 'aGVsbG8=', 'aGk=', 'YQ==', 'aGVs\nbG8=\n', 'aGVsbG8h'])
      expect(typeErrorOf(secret(ok)), ok).toBeUndefined()
    expect(typeErrorOf(secret('hello'))).toBe('illegal base64 data at input byte 4')
    expect(typeErrorOf(secret('hello!'))).toBe('illegal base64 data at input byte 5')
    expect(typeErrorOf(secret('YQ'))).toBe('illegal base64 data at input byte 0')
    expect(typeErrorOf(secret('YQ='))).toBe('illegal base64 data at input byte 3')
    expect(typeErrorOf(secret('Y==='))).toBe('illegal base64 data at input byte 1')
    expect(typeErrorOf(secret('YQ==YQ=='))).toBe('illegal base64 data at input byte 4')
    expect(typeErrorOf(secret('my password'))).toBe('illegal base64 data at input byte 2')
  })

  it('checks timestamps and bytes as their Go types decode them', () => {
    expect(
      typeErrorOf({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'c', creationTimestamp: 5 },
      }),
    ).toBe('json: cannot unmarshal number into Go value of type string')
    expect(
      typeErrorOf({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 1 } }),
    ).toBe('json: cannot unmarshal number into Go struct field Secret.data of type []uint8')
  })
})
