import { describe, expect, it } from 'vitest'
import type { FieldType } from '../../../src/apimachinery/schema-types'
import type { KubeObject } from '../../../src/apimachinery/types'
import { storedResources } from '../../../src/apis/registry'
import type { ResourceDef } from '../../../src/apis/resource-def'
import { kindStruct, schemas } from '../../../src/apis/schema'
import { prepareForCreate, prepareForUpdate } from '../../../src/apis/strategy'

const now = Date.parse('2025-06-01T12:00:00Z')
const def = (group: string, kind: string): ResourceDef =>
  storedResources.find((d) => d.group === group && d.kind === kind)!
const create = (group: string, kind: string, body: Partial<KubeObject> = {}) =>
  prepareForCreate(
    def(group, kind),
    { metadata: { name: 'x', namespace: 'default' }, ...body } as KubeObject,
    now,
  )

/** Every field the schema marks required, along the value, that the value lacks (null counts as missing). */
function missingRequired(struct: string, value: unknown, path: string): string[] {
  const s = schemas[struct]
  if (!s || typeof value !== 'object' || value === null) return []
  const fields = value as Record<string, unknown>
  const missing: string[] = []
  for (const [name, field] of Object.entries(s.fields)) {
    const v = fields[name]
    if (
      field.required &&
      v == null &&
      !(field.type.kind === 'scalar' && field.type.scalar === 'time')
    )
      missing.push(`${path}.${name}`)
    missing.push(...missingIn(field.type, v, `${path}.${name}`))
  }
  return missing
}

function missingIn(type: FieldType, value: unknown, path: string): string[] {
  if (type.kind === 'ref') return missingRequired(type.ref, value, path)
  if (type.kind === 'list' && Array.isArray(value))
    return value.flatMap((item, i) => missingIn(type.items, item, `${path}[${i}]`))
  return []
}

describe('status fields upstream always writes', () => {
  it('a created workload carries its zero counts', () => {
    expect(create('apps', 'DaemonSet').status).toEqual({
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
      numberReady: 0,
    })
    expect(create('apps', 'ReplicaSet').status).toEqual({ replicas: 0 })
    expect(create('', 'ReplicationController').status).toEqual({ replicas: 0 })
    expect(Object.entries(create('apps', 'StatefulSet').status as object)).toEqual([
      ['replicas', 0],
      ['availableReplicas', 0],
    ])
    expect(create('apps', 'Deployment').status).toEqual({})
    expect(create('batch', 'Job').status).toEqual({})
    expect(create('policy', 'PodDisruptionBudget').status).toEqual({
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    })
    expect(create('autoscaling', 'HorizontalPodAutoscaler').status).toEqual({ desiredReplicas: 0 })
  })

  it('a status sent on create is replaced, and still carries them', () => {
    expect(
      create('apps', 'ReplicaSet', { status: { replicas: 7, readyReplicas: 7 } }).status,
    ).toEqual({ replicas: 0 })
  })

  it('a Service and an Ingress carry status.loadBalancer', () => {
    expect(create('', 'Service', { spec: { ports: [{ port: 80 }] } }).status).toEqual({
      loadBalancer: {},
    })
    expect(create('networking.k8s.io', 'Ingress', { spec: {} }).status).toEqual({
      loadBalancer: {},
    })
  })

  it('a Node created without status carries nodeInfo and the kubelet endpoint', () => {
    const node = prepareForCreate(def('', 'Node'), { metadata: { name: 'n1' } }, now)
    const status = node.status as { nodeInfo: Record<string, string>; daemonEndpoints: unknown }
    expect(status.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 0 } })
    expect(Object.keys(status.nodeInfo).sort()).toEqual([
      'architecture',
      'bootID',
      'containerRuntimeVersion',
      'kernelVersion',
      'kubeProxyVersion',
      'kubeletVersion',
      'machineID',
      'operatingSystem',
      'osImage',
      'systemUUID',
    ])
    expect(new Set(Object.values(status.nodeInfo))).toEqual(new Set(['']))
  })

  it('a status write that leaves counts out gets them as zero, the rest as written', () => {
    const rs = create('apps', 'ReplicaSet')
    const next = prepareForUpdate(
      def('apps', 'ReplicaSet'),
      rs,
      { ...rs, status: { readyReplicas: 2, observedGeneration: 1 } },
      'status',
    )
    expect(next.status).toEqual({ readyReplicas: 2, observedGeneration: 1, replicas: 0 })
  })

  it('container statuses get imageID, ready, restartCount and state as the kubelet writes them', () => {
    const pod = create('', 'Pod', { spec: { containers: [{ name: 'c', image: 'busybox' }] } })
    const written = {
      ...pod,
      status: { phase: 'Running', containerStatuses: [{ name: 'c', image: 'busybox' }] },
    }
    const next = prepareForUpdate(def('', 'Pod'), pod, written, 'status')
    expect((next.status as { containerStatuses: unknown[] }).containerStatuses).toEqual([
      {
        name: 'c',
        image: 'busybox',
        state: {},
        lastState: {},
        ready: false,
        restartCount: 0,
        imageID: '',
      },
    ])
    // The request's own status is not changed in place.
    expect(written.status.containerStatuses[0]).toEqual({ name: 'c', image: 'busybox' })
  })

  it('a spec update fills the kept status without changing the stored object', () => {
    const stored = { ...create('apps', 'DaemonSet'), status: { numberReady: 1 } }
    const next = prepareForUpdate(def('apps', 'DaemonSet'), stored, {
      ...stored,
      spec: { minReadySeconds: 5 },
    })
    expect(next.status).toEqual({
      numberReady: 1,
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 0,
    })
    expect(stored.status).toEqual({ numberReady: 1 })
  })

  it('a StatefulSet without serviceName serves it as ""', () => {
    expect(
      (create('apps', 'StatefulSet', { spec: {} }).spec as { serviceName: string }).serviceName,
    ).toBe('')
    expect(
      (
        create('apps', 'StatefulSet', { spec: { serviceName: 'web' } }).spec as {
          serviceName: string
        }
      ).serviceName,
    ).toBe('web')
  })

  it('every stored kind with a status: a new object lacks no field the schema requires in it', () => {
    const checked: string[] = []
    for (const d of storedResources) {
      const struct = kindStruct(d.group, d.version, d.kind)
      const status = struct ? schemas[struct]!.fields.status?.type : undefined
      if (status?.kind !== 'ref') continue
      const obj = prepareForCreate(
        d,
        { metadata: { name: 'x', namespace: 'default' }, spec: {} },
        now,
      )
      expect(missingIn(status, obj.status, 'status'), `${d.kind}.${d.group}`).toEqual([])
      checked.push(d.kind)
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'DaemonSet',
        'StatefulSet',
        'ReplicaSet',
        'ReplicationController',
        'PodDisruptionBudget',
        'HorizontalPodAutoscaler',
        'Node',
        'Service',
        'Pod',
      ]),
    )
  })
})
