import { describe, it, expect } from 'vitest'
import { findResource } from '../../../src/apis/registry'
import { prepareForCreate, prepareForUpdate, validateUpdate } from '../../../src/apis/strategy'
import type { KubeObject, StatusCause } from '../../../src/apimachinery/types'

const template = (labels: Record<string, string> = { app: 'a' }) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'app', image: 'busybox', command: ['sleep', '1'] }] },
})

/** Stores `body` as a create would, then applies `change` to a copy as an update and returns the causes. */
function updating(group: string, version: string, plural: string, body: Record<string, unknown>) {
  const def = findResource(group, version, plural)!
  const old = prepareForCreate(
    def,
    { metadata: { name: 'x', namespace: 'default' }, ...body } as KubeObject,
    Date.now(),
  )
  return (change: (o: any) => void, subresource?: 'status'): StatusCause[] => {
    const incoming = structuredClone(old)
    change(incoming)
    return validateUpdate(def, old, prepareForUpdate(def, old, incoming, subresource), subresource)
  }
}

const fields = (causes: StatusCause[]) => causes.map((c) => `${c.field}: ${c.message}`)

describe('fields fixed once an object exists', () => {
  it('StatefulSet: only replicas, ordinals, template, updateStrategy, the claim retention policy and minReadySeconds change', () => {
    const update = updating('apps', 'v1', 'statefulsets', {
      spec: { selector: { matchLabels: { app: 'a' } }, serviceName: 'svc', template: template() },
    })
    expect(
      update((o) => {
        o.spec.replicas = 3
        o.spec.minReadySeconds = 5
        o.spec.template.spec.containers[0].image = 'busybox:1.37'
        o.spec.updateStrategy = { type: 'OnDelete' }
        o.spec.persistentVolumeClaimRetentionPolicy = {
          whenDeleted: 'Delete',
          whenScaled: 'Retain',
        }
        o.spec.ordinals = { start: 2 }
      }),
    ).toEqual([])
    const forbidden =
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
    for (const change of [
      (o: any) => (o.spec.serviceName = 'other'),
      (o: any) => (o.spec.podManagementPolicy = 'Parallel'),
      (o: any) => (o.spec.selector = { matchLabels: { app: 'b' } }),
    ]) {
      expect(fields(update(change))).toEqual([forbidden])
    }
  })

  it('Deployment, ReplicaSet, DaemonSet: the selector', () => {
    for (const plural of ['deployments', 'replicasets', 'daemonsets']) {
      const update = updating('apps', 'v1', plural, {
        spec: { selector: { matchLabels: { app: 'a' } }, template: template({ app: 'a', v: '1' }) },
      })
      expect(
        update((o) => (o.spec.template.metadata.labels.v = '2')),
        plural,
      ).toEqual([])
      expect(
        fields(update((o) => (o.spec.selector = { matchLabels: { app: 'a', v: '1' } }))),
        plural,
      ).toEqual([
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"a", "v":"1"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
      ])
    }
  })

  describe('Job', () => {
    const job = (spec: Record<string, unknown> = {}) =>
      updating('batch', 'v1', 'jobs', {
        metadata: { name: 'x', namespace: 'default', uid: 'u-1' },
        spec: {
          template: { ...template(), spec: { ...template().spec, restartPolicy: 'Never' } },
          ...spec,
        },
      })

    it('keeps its selector, template and completion mode', () => {
      const update = job()
      expect(update((o) => (o.spec.parallelism = 4))).toEqual([])
      expect(
        fields(update((o) => (o.spec.template.spec.containers[0].image = 'busybox:2')))[0],
      ).toMatch(/^spec\.template: Invalid value: .*: field is immutable$/)
      expect(
        fields(
          update(
            (o) =>
              (o.spec.selector = {
                matchLabels: { 'batch.kubernetes.io/controller-uid': 'other' },
              }),
          ),
        ).some(
          (l) =>
            l.startsWith('spec.selector: Invalid value: v1.LabelSelector{') &&
            l.endsWith('field is immutable'),
        ),
      ).toBe(true)
      expect(
        fields(update((o) => (o.spec.completionMode = 'Indexed'))).filter((l) =>
          l.startsWith('spec.completionMode'),
        ),
      ).toEqual(['spec.completionMode: Invalid value: "Indexed": field is immutable'])
      expect(fields(update((o) => (o.spec.completions = 3)))).toEqual([
        'spec.completions: Invalid value: 3: field is immutable',
      ])
      expect(fields(update((o) => (o.spec.podFailurePolicy = { rules: [] })))).toEqual([])
    })

    it('lets an Indexed Job change completions together with parallelism', () => {
      const update = job({ completionMode: 'Indexed', completions: 2, parallelism: 2 })
      expect(update((o) => Object.assign(o.spec, { completions: 5, parallelism: 5 }))).toEqual([])
      expect(fields(update((o) => (o.spec.completions = 5)))).toEqual([
        'spec.completions: Invalid value: 5: can only be modified in tandem with spec.parallelism',
      ])
    })

    it('lets a suspended Job that never started change its scheduling directives, and nothing else', () => {
      const update = job({ suspend: true })
      expect(
        update((o) => {
          o.spec.template.spec.nodeSelector = { zone: 'a' }
          o.spec.template.spec.tolerations = [{ key: 'k', operator: 'Exists' }]
          o.spec.template.spec.affinity = {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: 'z', operator: 'Exists' }] }],
              },
            },
          }
          o.spec.template.metadata.annotations = { note: 'x' }
          o.spec.template.spec.schedulingGates = [{ name: 'g' }]
        }),
      ).toEqual([])
      expect(
        fields(update((o) => (o.spec.template.spec.containers[0].command = ['true'])))[0],
      ).toMatch(/^spec\.template: Invalid value: .*: field is immutable$/)
      const running = job()
      expect(
        fields(running((o) => (o.spec.template.spec.nodeSelector = { zone: 'a' })))[0],
      ).toMatch(/^spec\.template: /)
    })
  })

  it('ConfigMap and Secret marked immutable keep their data; a Secret keeps its type', () => {
    const cm = updating('', 'v1', 'configmaps', { data: { a: '1' }, immutable: true })
    const when = 'Forbidden: field is immutable when `immutable` is set'
    expect(cm((o) => (o.metadata.labels = { l: 'v' }))).toEqual([])
    expect(fields(cm((o) => (o.data.a = '2')))).toEqual([`data: ${when}`])
    expect(fields(cm((o) => (o.binaryData = { b: 'AA==' })))).toEqual([`binaryData: ${when}`])
    expect(fields(cm((o) => (o.immutable = false)))).toEqual([`immutable: ${when}`])
    const secret = updating('', 'v1', 'secrets', { data: { a: 'MQ==' }, immutable: true })
    expect(fields(secret((o) => (o.stringData = { a: '2' })))).toEqual([`data: ${when}`])
    const typed = updating('', 'v1', 'secrets', { data: { a: 'MQ==' } })
    expect(typed((o) => (o.data.a = 'Mg=='))).toEqual([])
    expect(fields(typed((o) => (o.type = 'kubernetes.io/tls')))).toEqual([
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
    ])
  })

  it('Node: providerID once set, and externalID', () => {
    const update = updating('', 'v1', 'nodes', {
      metadata: { name: 'n' },
      spec: { providerID: 'edge://n' },
    })
    expect(update((o) => (o.spec.unschedulable = true))).toEqual([])
    expect(fields(update((o) => (o.spec.providerID = 'edge://m')))).toEqual([
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    ])
    expect(fields(update((o) => (o.spec.externalID = 'x')))).toEqual([
      'spec.externalID: Forbidden: may not be updated',
    ])
    const unset = updating('', 'v1', 'nodes', { metadata: { name: 'n' }, spec: {} })
    expect(unset((o) => (o.spec.providerID = 'edge://n'))).toEqual([])
  })

  it('Service: a LoadBalancer keeps its loadBalancerClass', () => {
    const update = updating('', 'v1', 'services', {
      spec: { type: 'LoadBalancer', loadBalancerClass: 'example.com/lb', ports: [{ port: 80 }] },
    })
    expect(fields(update((o) => (o.spec.loadBalancerClass = 'example.com/other')))).toEqual([
      'spec.loadBalancerClass: Invalid value: "example.com/other": may not change once set',
    ])
    expect(update((o) => (o.spec.ports[0].port = 81))).toEqual([])
  })

  it('ResourceQuota scopes, EndpointSlice addressType, IngressClass controller, RuntimeClass handler, ControllerRevision data', () => {
    const quota = updating('', 'v1', 'resourcequotas', {
      spec: { hard: { pods: '1' }, scopes: ['BestEffort'] },
    })
    expect(quota((o) => (o.spec.hard.pods = '2'))).toEqual([])
    expect(fields(quota((o) => (o.spec.scopes = ['NotBestEffort'])))).toEqual([
      'spec.scopes: Invalid value: []core.ResourceQuotaScope{"NotBestEffort"}: field is immutable',
    ])
    const slice = updating('discovery.k8s.io', 'v1', 'endpointslices', {
      addressType: 'IPv4',
      endpoints: [],
    })
    expect(fields(slice((o) => (o.addressType = 'FQDN')))).toEqual([
      'addressType: Invalid value: "FQDN": field is immutable',
    ])
    const ingressClass = updating('networking.k8s.io', 'v1', 'ingressclasses', {
      metadata: { name: 'c' },
      spec: { controller: 'example.com/a' },
    })
    expect(fields(ingressClass((o) => (o.spec.controller = 'example.com/b')))).toEqual([
      'spec.controller: Invalid value: "example.com/b": field is immutable',
    ])
    const runtime = updating('node.k8s.io', 'v1', 'runtimeclasses', {
      metadata: { name: 'r' },
      handler: 'runc',
    })
    expect(fields(runtime((o) => (o.handler = 'kata')))).toEqual([
      'handler: Invalid value: "kata": field is immutable',
    ])
    const revision = updating('apps', 'v1', 'controllerrevisions', {
      data: { spec: { a: 1 } },
      revision: 1,
    })
    expect(revision((o) => (o.revision = 2))).toEqual([])
    expect(fields(revision((o) => (o.data = { spec: { a: 2 } })))[0]).toMatch(
      /^data: Invalid value: .*: field is immutable$/,
    )
  })

  it('CSIDriver: attachRequired and volumeLifecycleModes', () => {
    const update = updating('storage.k8s.io', 'v1', 'csidrivers', {
      metadata: { name: 'd' },
      spec: {},
    })
    expect(update((o) => (o.spec.podInfoOnMount = true))).toEqual([])
    expect(fields(update((o) => (o.spec.attachRequired = false)))).toEqual([
      'spec.attachedRequired: Invalid value: false: field is immutable',
    ])
    expect(fields(update((o) => (o.spec.volumeLifecycleModes = ['Ephemeral'])))).toEqual([
      'spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"Ephemeral"}: field is immutable',
    ])
  })

  it('checks only writes to the object itself, not to its status', () => {
    const update = updating('apps', 'v1', 'statefulsets', {
      spec: { selector: { matchLabels: { app: 'a' } }, serviceName: 'svc', template: template() },
    })
    expect(
      update((o) => {
        o.spec.serviceName = 'other'
        o.status = { replicas: 1 }
      }, 'status'),
    ).toEqual([])
  })
})
