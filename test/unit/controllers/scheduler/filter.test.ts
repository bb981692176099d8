import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import {
  checkNodeAffinity,
  checkNodeReady,
  checkNodeUnschedulable,
  checkResources,
  checkTaints,
  filterNode,
} from '../../../../src/controllers/scheduler/filter'
import type { Rejection } from '../../../../src/controllers/scheduler/rejection'
import { newNode, newPod } from '../../../helpers'
import type { Taint, Toleration } from '../../../../src/controllers/node-lifecycle/taints'
import {
  nodeAllocatable,
  podRequests,
  type ResourceList,
} from '../../../../src/controllers/scheduler/requests'

const reasons = (r: Rejection | undefined) => r?.reasons ?? []

describe('checkNodeReady', () => {
  it.each<[string, boolean | 'Unknown' | null, Toleration[] | undefined, string[]]>([
    ['Ready=True passes', true, undefined, []],
    ['Ready=False is rejected', false, undefined, ['node(s) were not ready']],
    ['Ready=Unknown is rejected', 'Unknown', undefined, ['node(s) were not ready']],
    ['no Ready condition is rejected', null, undefined, ['node(s) were not ready']],
    [
      'Ready=False passes with a not-ready toleration',
      false,
      [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
      [],
    ],
    [
      'Ready=Unknown passes with an unreachable toleration',
      'Unknown',
      [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }],
      [],
    ],
    [
      'Ready=Unknown is not helped by a not-ready toleration',
      'Unknown',
      [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }],
      ['node(s) were not ready'],
    ],
    ['tolerate-everything passes', false, [{ operator: 'Exists' }], []],
  ])('%s', (_, ready, tolerations, want) => {
    expect(reasons(checkNodeReady(newPod('p', { tolerations }), newNode('n', { ready })))).toEqual(
      want,
    )
  })
})

describe('checkNodeUnschedulable', () => {
  it.each<[string, boolean, Toleration[] | undefined, string[]]>([
    ['schedulable node passes', false, undefined, []],
    ['cordoned node is rejected', true, undefined, ['node(s) were unschedulable']],
    [
      'cordoned node passes with the unschedulable toleration',
      true,
      [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
      [],
    ],
    [
      'a NoExecute-only toleration does not help',
      true,
      [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }],
      ['node(s) were unschedulable'],
    ],
  ])('%s', (_, unschedulable, tolerations, want) => {
    expect(
      reasons(
        checkNodeUnschedulable(newPod('p', { tolerations }), newNode('n', { unschedulable })),
      ),
    ).toEqual(want)
  })
})

describe('checkTaints', () => {
  const dedicated: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }
  it.each<[string, Taint[], Toleration[] | undefined, string[]]>([
    ['no taints', [], undefined, []],
    [
      'untolerated NoSchedule names key and value',
      [dedicated],
      undefined,
      ['node(s) had untolerated taint {dedicated: gpu}'],
    ],
    [
      'untolerated NoExecute',
      [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }],
      undefined,
      ['node(s) had untolerated taint {node.kubernetes.io/unreachable: }'],
    ],
    [
      'PreferNoSchedule never filters',
      [{ key: 'soft', effect: 'PreferNoSchedule' }],
      undefined,
      [],
    ],
    [
      'Equal with the same value',
      [dedicated],
      [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
      [],
    ],
    ['operator defaults to Equal', [dedicated], [{ key: 'dedicated', value: 'gpu' }], []],
    [
      'Equal with another value',
      [dedicated],
      [{ key: 'dedicated', operator: 'Equal', value: 'cpu' }],
      ['node(s) had untolerated taint {dedicated: gpu}'],
    ],
    ['Exists ignores the value', [dedicated], [{ key: 'dedicated', operator: 'Exists' }], []],
    [
      'empty key with Exists tolerates everything',
      [dedicated, { key: 'x', effect: 'NoExecute' }],
      [{ operator: 'Exists' }],
      [],
    ],
    [
      'empty effect matches every effect',
      [dedicated],
      [{ key: 'dedicated', operator: 'Exists', effect: '' }],
      [],
    ],
    [
      'a different effect does not match',
      [dedicated],
      [{ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }],
      ['node(s) had untolerated taint {dedicated: gpu}'],
    ],
    [
      'the first untolerated taint is reported',
      [{ key: 'a', effect: 'NoSchedule' }, dedicated],
      [{ key: 'a', operator: 'Exists' }],
      ['node(s) had untolerated taint {dedicated: gpu}'],
    ],
    [
      'unknown operator tolerates nothing',
      [dedicated],
      [{ key: 'dedicated', operator: 'Gt', value: 'gpu' }],
      ['node(s) had untolerated taint {dedicated: gpu}'],
    ],
  ])('%s', (_, taints, tolerations, want) => {
    expect(reasons(checkTaints(newPod('p', { tolerations }), newNode('n', { taints })))).toEqual(
      want,
    )
  })
})

describe('checkNodeAffinity', () => {
  const labels = { zone: 'a', disk: 'ssd', cores: '8' }
  const affinity = (...nodeSelectorTerms: unknown[]) => ({
    affinity: {
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } },
    },
  })
  const expr = (key: string, operator: string, values?: string[]) => ({
    matchExpressions: [{ key, operator, values }],
  })
  it.each<[string, Record<string, unknown>, boolean]>([
    ['no constraints', {}, true],
    ['nodeSelector matches', { nodeSelector: { zone: 'a' } }, true],
    ['nodeSelector mismatches', { nodeSelector: { zone: 'b' } }, false],
    ['nodeSelector on a missing label', { nodeSelector: { gpu: 'true' } }, false],
    ['nodeSelector with every label', { nodeSelector: { zone: 'a', disk: 'ssd' } }, true],
    ['In', affinity(expr('zone', 'In', ['a', 'b'])), true],
    ['In mismatch', affinity(expr('zone', 'In', ['b'])), false],
    ['NotIn', affinity(expr('zone', 'NotIn', ['b'])), true],
    ['NotIn mismatch', affinity(expr('zone', 'NotIn', ['a'])), false],
    ['NotIn on a missing label matches', affinity(expr('gpu', 'NotIn', ['x'])), true],
    ['Exists', affinity(expr('disk', 'Exists')), true],
    ['Exists on a missing label', affinity(expr('gpu', 'Exists')), false],
    ['DoesNotExist', affinity(expr('gpu', 'DoesNotExist')), true],
    ['DoesNotExist on a present label', affinity(expr('zone', 'DoesNotExist')), false],
    ['Gt', affinity(expr('cores', 'Gt', ['4'])), true],
    ['Gt equal is false', affinity(expr('cores', 'Gt', ['8'])), false],
    ['Lt', affinity(expr('cores', 'Lt', ['16'])), true],
    ['Lt with a non-integer value matches nothing', affinity(expr('cores', 'Lt', ['many'])), false],
    [
      'expressions in a term are ANDed',
      affinity({
        matchExpressions: [
          { key: 'zone', operator: 'In', values: ['a'] },
          { key: 'disk', operator: 'In', values: ['hdd'] },
        ],
      }),
      false,
    ],
    ['terms are ORed', affinity(expr('zone', 'In', ['b']), expr('disk', 'In', ['ssd'])), true],
    ['an empty term matches nothing', affinity({}), false],
    [
      'matchFields metadata.name In',
      affinity({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }),
      true,
    ],
    [
      'matchFields metadata.name In another',
      affinity({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }),
      false,
    ],
    [
      'matchFields metadata.name NotIn',
      affinity({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n2'] }] }),
      true,
    ],
    [
      'matchFields on another field',
      affinity({ matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['x'] }] }),
      false,
    ],
    [
      'fields and expressions are ANDed',
      affinity({
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }],
        matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }],
      }),
      false,
    ],
    [
      'nodeSelector and affinity must both match',
      { nodeSelector: { zone: 'b' }, ...affinity(expr('zone', 'In', ['a'])) },
      false,
    ],
    ['unknown operator matches nothing', affinity(expr('zone', 'Like', ['a'])), false],
  ])('%s', (_, spec, fits) => {
    const rejection = checkNodeAffinity(newPod('p', { spec }), newNode('n1', { labels }))
    expect(rejection === undefined).toBe(fits)
    if (rejection)
      expect(rejection).toEqual({
        reasons: ["node(s) didn't match Pod's node affinity/selector"],
        resolvable: false,
      })
  })
})

describe('checkResources', () => {
  const alloc: ResourceList = { cpu: 4000, memory: 8 * 2 ** 30, pods: 3, 'nvidia.com/gpu': 1 }
  it.each<[string, ResourceList, ResourceList, number, string[]]>([
    ['fits an empty node', { cpu: 1000, memory: 2 ** 30 }, {}, 0, []],
    ['fits exactly', { cpu: 1000 }, { cpu: 3000 }, 1, []],
    ['cpu short by 1m', { cpu: 1001 }, { cpu: 3000 }, 1, ['Insufficient cpu']],
    ['memory short', { memory: 2 ** 30 }, { memory: 7.5 * 2 ** 30 }, 1, ['Insufficient memory']],
    [
      'every shortfall is reported',
      { cpu: 5000, memory: 9 * 2 ** 30 },
      {},
      0,
      ['Insufficient cpu', 'Insufficient memory'],
    ],
    ['pod count', {}, {}, 3, ['Too many pods']],
    [
      'pod count with other shortfalls',
      { cpu: 5000 },
      {},
      3,
      ['Too many pods', 'Insufficient cpu'],
    ],
    ['zero requests always fit', { cpu: 0 }, { cpu: 9000 }, 1, []],
    ['extended resource', { 'nvidia.com/gpu': 2 }, {}, 0, ['Insufficient nvidia.com/gpu']],
    [
      'extended resource the node lacks',
      { 'example.com/fpga': 1 },
      {},
      0,
      ['Insufficient example.com/fpga'],
    ],
    [
      'ephemeral-storage the node does not report',
      { 'ephemeral-storage': 1 },
      {},
      0,
      ['Insufficient ephemeral-storage'],
    ],
  ])('%s', (_, request, requested, podCount, want) => {
    expect(reasons(checkResources(request, alloc, { requested, podCount }))).toEqual(want)
  })

  it('marks resource shortfalls as resolvable', () => {
    expect(checkResources({ cpu: 9000 }, alloc, { requested: {}, podCount: 0 })?.resolvable).toBe(
      true,
    )
  })

  it('treats a node without pods allocatable as full', () => {
    expect(reasons(checkResources({}, { cpu: 1000 }, { requested: {}, podCount: 0 }))).toEqual([
      'Too many pods',
    ])
  })
})

describe('podRequests', () => {
  const container = (requests?: Record<string, string>, extra: Record<string, unknown> = {}) => ({
    name: 'c',
    image: 'i',
    resources: requests ? { requests } : {},
    ...extra,
  })
  const podWith = (spec: Record<string, unknown>): KubeObject => newPod('p', { spec })
  it.each<[string, Record<string, unknown>, ResourceList]>([
    [
      'sums containers',
      {
        containers: [
          container({ cpu: '500m', memory: '128Mi' }),
          container({ cpu: '1', memory: '1Gi' }),
        ],
      },
      { cpu: 1500, memory: 128 * 2 ** 20 + 2 ** 30 },
    ],
    [
      'a larger init container wins',
      { containers: [container({ cpu: '500m' })], initContainers: [container({ cpu: '2' })] },
      { cpu: 2000 },
    ],
    [
      'a smaller init container does not add',
      {
        containers: [container({ cpu: '500m' }), container({ cpu: '500m' })],
        initContainers: [container({ cpu: '600m' })],
      },
      { cpu: 1000 },
    ],
    [
      'max is per resource',
      {
        containers: [container({ cpu: '2', memory: '64Mi' })],
        initContainers: [container({ cpu: '1', memory: '1Gi' })],
      },
      { cpu: 2000, memory: 2 ** 30 },
    ],
    [
      'overhead is added',
      { containers: [container({ cpu: '1' })], overhead: { cpu: '250m', memory: '120Mi' } },
      { cpu: 1250, memory: 120 * 2 ** 20 },
    ],
    [
      'sidecars add to the containers and run beside later init containers',
      {
        containers: [container({ cpu: '1' })],
        initContainers: [
          container({ cpu: '500m' }, { restartPolicy: 'Always' }),
          container({ cpu: '2' }),
        ],
      },
      { cpu: 2500 },
    ],
    [
      'a limit without a request is requested at the limit',
      {
        containers: [
          {
            name: 'c',
            resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { memory: '512Mi' } },
          },
        ],
      },
      { cpu: 2000, memory: 512 * 2 ** 20 },
    ],
    ['unparsable quantities count as nothing', { containers: [container({ cpu: 'lots' })] }, {}],
    ['no containers', { containers: [] }, {}],
  ])('%s', (_, spec, want) => {
    expect(podRequests(podWith(spec))).toEqual(want)
  })

  it('substitutes 100m and 200Mi for unset cpu and memory when scoring', () => {
    const pod = podWith({ containers: [container(), container({ cpu: '0' })] })
    expect(podRequests(pod, { nonMissing: true })).toEqual({ cpu: 100, memory: 400 * 2 ** 20 })
  })
})

describe('nodeAllocatable', () => {
  it('reads allocatable, falling back to capacity', () => {
    expect(
      nodeAllocatable(newNode('n', { allocatable: { cpu: '3500m', memory: '1Gi', pods: '10' } })),
    ).toEqual({ cpu: 3500, memory: 2 ** 30, pods: 10 })
    const capacityOnly: KubeObject = {
      kind: 'Node',
      metadata: { name: 'n' },
      status: { capacity: { cpu: '2' } },
    }
    expect(nodeAllocatable(capacityOnly)).toEqual({ cpu: 2000 })
  })
})

describe('filterNode', () => {
  const run = (pod: KubeObject, node: KubeObject, requested: ResourceList = {}) =>
    filterNode(pod, node, podRequests(pod), nodeAllocatable(node), { requested, podCount: 0 })

  it('reports only the first failing filter, in kube-scheduler order', () => {
    const node = newNode('n', {
      unschedulable: true,
      taints: [{ key: 'a', effect: 'NoSchedule' }],
      labels: { zone: 'x' },
    })
    const pod = newPod('p', { requests: { cpu: '100' }, spec: { nodeSelector: { zone: 'y' } } })
    expect(reasons(run(pod, node))).toEqual(['node(s) were unschedulable'])
    expect(
      reasons(run(pod, newNode('n', { taints: [{ key: 'a', effect: 'NoSchedule' }] }))),
    ).toEqual(['node(s) had untolerated taint {a: }'])
    expect(reasons(run(pod, newNode('n')))).toEqual([
      "node(s) didn't match Pod's node affinity/selector",
    ])
    expect(reasons(run(newPod('p', { requests: { cpu: '100' } }), newNode('n')))).toEqual([
      'Insufficient cpu',
    ])
  })

  it('passes a pod that fits', () => {
    expect(
      run(newPod('p', { requests: { cpu: '1', memory: '1Gi' } }), newNode('n'), { cpu: 3000 }),
    ).toBeUndefined()
  })
})
