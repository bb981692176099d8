import { describe, it, expect } from 'vitest'
import type { FieldType, SchemaSet, StructDef } from '../../../../src/apimachinery/schema-types'
import { kindStruct, schemas as realSchemas } from '../../../../src/apis/schema/index'
import {
  PatchError,
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
} from '../../../../src/apimachinery/patch/index'

// ---- a small inline schema with the patch metadata of the upstream Go types ----

const s: FieldType = { kind: 'scalar', scalar: 'string' }
const i: FieldType = { kind: 'scalar', scalar: 'integer' }
const b: FieldType = { kind: 'scalar', scalar: 'boolean' }
const ref = (name: string): FieldType => ({ kind: 'ref', ref: name })
const mapOf = (values: FieldType): FieldType => ({ kind: 'map', values })
const atomic = (items: FieldType): FieldType => ({ kind: 'list', items, listType: 'atomic' })
const merged = (
  items: FieldType,
  patchMergeKey?: string,
  strategy: 'merge' | 'merge,retainKeys' = 'merge',
): FieldType =>
  patchMergeKey === undefined
    ? { kind: 'list', items, patchStrategy: strategy, listType: 'set' }
    : {
        kind: 'list',
        items,
        patchStrategy: strategy,
        patchMergeKey,
        listType: 'map',
        listMapKeys: [patchMergeKey],
      }
const struct = (fields: Record<string, FieldType>, retainKeys = false): StructDef => {
  const def: StructDef = {
    fields: Object.fromEntries(Object.entries(fields).map(([k, type]) => [k, { type }])),
  }
  if (retainKeys) def.retainKeys = true
  return def
}

const schemas: SchemaSet = {
  ObjectMeta: struct({
    name: s,
    namespace: s,
    labels: mapOf(s),
    annotations: mapOf(s),
    finalizers: merged(s),
    ownerReferences: merged(ref('OwnerReference'), 'uid'),
  }),
  OwnerReference: struct({ apiVersion: s, kind: s, name: s, uid: s, controller: b }),
  Deployment: struct({
    apiVersion: s,
    kind: s,
    metadata: ref('ObjectMeta'),
    spec: ref('DeploymentSpec'),
  }),
  DeploymentSpec: struct({
    replicas: i,
    paused: b,
    strategy: ref('DeploymentStrategy'),
    template: ref('PodTemplateSpec'),
  }),
  DeploymentStrategy: struct({ type: s, rollingUpdate: ref('RollingUpdateDeployment') }, true),
  RollingUpdateDeployment: struct({ maxSurge: s, maxUnavailable: s }),
  PodTemplateSpec: struct({ metadata: ref('ObjectMeta'), spec: ref('PodSpec') }),
  PodSpec: struct({
    containers: merged(ref('Container'), 'name'),
    volumes: merged(ref('Volume'), 'name', 'merge,retainKeys'),
    tolerations: atomic(ref('Toleration')),
    nodeSelector: mapOf(s),
  }),
  Container: struct({
    name: s,
    image: s,
    args: atomic(s),
    env: merged(ref('EnvVar'), 'name'),
    ports: merged(ref('ContainerPort'), 'containerPort'),
    volumeMounts: merged(ref('VolumeMount'), 'mountPath'),
  }),
  EnvVar: struct({ name: s, value: s }),
  ContainerPort: struct({ name: s, containerPort: i, protocol: s }),
  VolumeMount: struct({ name: s, mountPath: s }),
  Toleration: struct({ key: s, operator: s, value: s, effect: s }),
  Volume: struct(
    {
      name: s,
      configMap: ref('ConfigMapVolumeSource'),
      secret: ref('SecretVolumeSource'),
      emptyDir: ref('EmptyDir'),
    },
    true,
  ),
  ConfigMapVolumeSource: struct({ name: s, defaultMode: i }),
  SecretVolumeSource: struct({ secretName: s, defaultMode: i }),
  EmptyDir: struct({ medium: s }),
  Node: struct({ apiVersion: s, kind: s, metadata: ref('ObjectMeta'), spec: ref('NodeSpec') }),
  NodeSpec: struct({ unschedulable: b, podCIDRs: merged(s), taints: atomic(ref('Taint')) }),
  Taint: struct({ key: s, value: s, effect: s }),
}

const smp = (original: unknown, patch: unknown, struct: string | undefined = 'Deployment') =>
  applyStrategicMergePatch(original, patch, struct, schemas)

/** Runs `fn` and returns the PatchError it throws. */
function patchError(fn: () => unknown): PatchError {
  try {
    fn()
  } catch (err) {
    if (err instanceof PatchError) return err
    throw err
  }
  throw new Error('expected a PatchError')
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v)
    Object.freeze(value)
  }
  return value
}

// ---- live objects and the real bodies kubectl sends (contract §7, §8.11, §8.20) ----

const oldLastApplied =
  '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web"}}\n'
const newLastApplied =
  '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"default"}}\n'

/** Live Deployment before the first apply body: two containers, env A and B, port 80. */
function liveWeb() {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      labels: { app: 'web' },
      annotations: {
        'deployment.kubernetes.io/revision': '1',
        'kubectl.kubernetes.io/last-applied-configuration': oldLastApplied,
      },
    },
    spec: {
      replicas: 2,
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
      },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.25',
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
              ports: [{ containerPort: 80, protocol: 'TCP' }],
            },
            { name: 'sidecar', image: 'busybox:1.36', args: ['sleep', 'infinity'] },
          ],
        },
      },
    },
  }
}

const applyBody1 = {
  metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': newLastApplied } },
  spec: {
    replicas: 3,
    template: {
      spec: {
        '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'sidecar' }],
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.27',
            '$setElementOrder/env': [{ name: 'A' }],
            env: [{ $patch: 'delete', name: 'B' }],
            '$setElementOrder/ports': [{ containerPort: 8080 }],
            ports: [{ containerPort: 8080 }, { $patch: 'delete', containerPort: 80 }],
          },
        ],
      },
    },
  },
}

/** Live Deployment before the second apply body. */
function liveAB() {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'ab',
      namespace: 'default',
      labels: { app: 'ab', tier: 'backend' },
      annotations: { team: 'core', owner: 'ops' },
    },
    spec: {
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: { labels: { app: 'ab' } },
        spec: {
          containers: [
            {
              name: 'a',
              image: 'app:1',
              args: ['--y', '--z'],
              volumeMounts: [
                { name: 'cfg', mountPath: '/cfg' },
                { name: 'tmp', mountPath: '/tmp' },
              ],
            },
            { name: 'b', image: 'helper:1' },
          ],
          tolerations: [
            { key: 'a', operator: 'Equal', value: 'x', effect: 'NoSchedule' },
            { key: 'c', operator: 'Exists' },
          ],
          volumes: [
            { name: 'cfg', configMap: { name: 'c1', defaultMode: 420 } },
            { name: 'tmp', emptyDir: {} },
          ],
        },
      },
    },
  }
}

const applyBody2 = {
  metadata: { annotations: { team: null }, labels: { tier: null } },
  spec: {
    strategy: { $retainKeys: ['type'], rollingUpdate: null, type: 'Recreate' },
    template: {
      spec: {
        '$setElementOrder/containers': [{ name: 'a' }],
        '$setElementOrder/volumes': [{ name: 'cfg' }],
        containers: [
          {
            name: 'a',
            args: ['--x'],
            '$setElementOrder/volumeMounts': [{ mountPath: '/cfg' }],
            volumeMounts: [{ $patch: 'delete', mountPath: '/tmp' }],
          },
          { $patch: 'delete', name: 'b' },
        ],
        tolerations: [{ key: 'b', operator: 'Exists' }],
        volumes: [
          {
            name: 'cfg',
            $retainKeys: ['name', 'secret'],
            configMap: null,
            secret: { secretName: 's1' },
          },
          { $patch: 'delete', name: 'tmp' },
        ],
      },
    },
  },
}

const expectedWebAfterBody1 = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'default',
    labels: { app: 'web' },
    annotations: {
      'deployment.kubernetes.io/revision': '1',
      'kubectl.kubernetes.io/last-applied-configuration': newLastApplied,
    },
  },
  spec: {
    replicas: 3,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.27',
            env: [{ name: 'A', value: '1' }],
            ports: [{ containerPort: 8080 }],
          },
          { name: 'sidecar', image: 'busybox:1.36', args: ['sleep', 'infinity'] },
        ],
      },
    },
  },
}

const expectedABAfterBody2 = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'ab',
    namespace: 'default',
    labels: { app: 'ab' },
    annotations: { owner: 'ops' },
  },
  spec: {
    replicas: 1,
    strategy: { type: 'Recreate' },
    template: {
      metadata: { labels: { app: 'ab' } },
      spec: {
        containers: [
          {
            name: 'a',
            image: 'app:1',
            args: ['--x'],
            volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }],
          },
        ],
        tolerations: [{ key: 'b', operator: 'Exists' }],
        volumes: [{ name: 'cfg', secret: { secretName: 's1' } }],
      },
    },
  },
}

describe('strategic merge patch: kubectl apply bodies', () => {
  it('applies the first apply body: image, replicas, env B removed, port 80 → 8080, order kept', () => {
    const result = smp(liveWeb(), applyBody1)
    expect(result).toStrictEqual(expectedWebAfterBody1)
    expect(JSON.stringify(result)).not.toContain('$')
  })

  it('applies the second apply body: label/annotation removed, Recreate, volume source switched, container removed', () => {
    const result = smp(liveAB(), applyBody2)
    expect(result).toStrictEqual(expectedABAfterBody2)
    expect(JSON.stringify(result)).not.toContain('$')
  })

  it('does not mutate the live object or the patch', () => {
    const live = deepFreeze(liveAB())
    const body = deepFreeze(structuredClone(applyBody2))
    const before = JSON.stringify([live, body])
    expect(smp(live, body)).toStrictEqual(expectedABAfterBody2)
    expect(JSON.stringify([live, body])).toBe(before)
  })

  it('returns a result that shares nothing with the inputs', () => {
    const live = liveWeb()
    const result = smp(live, { spec: { replicas: 9 } }) as ReturnType<typeof liveWeb>
    result.spec.template.spec.containers[0]!.image = 'changed'
    expect(live.spec.template.spec.containers[0]!.image).toBe('nginx:1.25')
  })
})

describe('strategic merge patch: imperative kubectl commands', () => {
  it('set image changes one container and keeps the order', () => {
    const body = {
      spec: {
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'sidecar' }],
            containers: [{ image: 'nginx:1.28', name: 'nginx' }],
          },
        },
      },
    }
    const result = smp(liveWeb(), body) as ReturnType<typeof liveWeb>
    const expected = liveWeb()
    expected.spec.template.spec.containers[0]!.image = 'nginx:1.28'
    expect(result).toStrictEqual(expected)
  })

  it('rollout restart adds the restartedAt annotation next to existing template annotations', () => {
    const live = liveWeb()
    ;(live.spec.template.metadata as Record<string, unknown>).annotations = {
      'prometheus.io/scrape': 'true',
    }
    const body = {
      spec: {
        template: {
          metadata: {
            annotations: { 'kubectl.kubernetes.io/restartedAt': '2025-01-02T03:04:05Z' },
          },
        },
      },
    }
    const result = smp(live, body) as ReturnType<typeof liveWeb>
    expect(result.spec.template.metadata).toStrictEqual({
      labels: { app: 'web' },
      annotations: {
        'prometheus.io/scrape': 'true',
        'kubectl.kubernetes.io/restartedAt': '2025-01-02T03:04:05Z',
      },
    })
    expect(result.spec.template.spec).toStrictEqual(liveWeb().spec.template.spec)
  })

  it('rollout pause sets paused, rollout resume (null) deletes it', () => {
    const paused = smp(liveWeb(), { spec: { paused: true } }) as ReturnType<typeof liveWeb>
    expect((paused.spec as Record<string, unknown>).paused).toBe(true)
    const resumed = smp(paused, { spec: { paused: null } })
    expect(resumed).toStrictEqual(liveWeb())
  })

  it('cordon sets unschedulable, uncordon (null) deletes it', () => {
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
      spec: { podCIDRs: ['10.0.0.0/24'] },
    }
    const cordoned = smp(node, { spec: { unschedulable: true } }, 'Node')
    expect(cordoned).toStrictEqual({
      ...node,
      spec: { podCIDRs: ['10.0.0.0/24'], unschedulable: true },
    })
    expect(smp(cordoned, { spec: { unschedulable: null } }, 'Node')).toStrictEqual(node)
  })

  it('taint replaces node taints wholesale (atomic list)', () => {
    const node = {
      metadata: { name: 'n1' },
      spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] },
    }
    const result = smp(
      node,
      { spec: { taints: [{ key: 'b', value: 'x', effect: 'NoExecute' }] } },
      'Node',
    )
    expect(result).toStrictEqual({
      metadata: { name: 'n1' },
      spec: { taints: [{ key: 'b', value: 'x', effect: 'NoExecute' }] },
    })
  })

  it('edit-style patch of one field leaves the rest alone', () => {
    const result = smp(liveWeb(), { spec: { replicas: 7 } }) as ReturnType<typeof liveWeb>
    expect(result).toStrictEqual({ ...liveWeb(), spec: { ...liveWeb().spec, replicas: 7 } })
  })
})

describe('strategic merge patch: maps and directives', () => {
  it.each([
    [
      'null deletes a key',
      { labels: { a: '1', b: '2' } },
      { labels: { a: null } },
      { labels: { b: '2' } },
    ],
    [
      'a null for an absent key is dropped',
      { labels: { a: '1' } },
      { labels: { z: null } },
      { labels: { a: '1' } },
    ],
    [
      'maps merge key by key',
      { labels: { a: '1' } },
      { labels: { b: '2' } },
      { labels: { a: '1', b: '2' } },
    ],
    [
      '$patch: replace replaces the map',
      { labels: { a: '1', b: '2' } },
      { labels: { $patch: 'replace', c: '3' } },
      { labels: { c: '3' } },
    ],
    [
      '$patch: delete removes the map',
      { labels: { a: '1' }, name: 'x' },
      { labels: { $patch: 'delete' } },
      { name: 'x' },
    ],
    [
      '$patch: merge is the default merge',
      { labels: { a: '1' } },
      { labels: { $patch: 'merge', b: '2' } },
      { labels: { a: '1', b: '2' } },
    ],
    [
      'a new map is stored without its nulls',
      { name: 'x' },
      { labels: { a: '1', b: null } },
      { name: 'x', labels: { a: '1' } },
    ],
  ])('%s', (_name, live, patch, expected) => {
    expect(
      applyStrategicMergePatch({ metadata: live }, { metadata: patch }, 'Deployment', schemas),
    ).toStrictEqual({ metadata: expected })
  })

  it('$patch: delete at the top level empties the object', () => {
    expect(smp(liveWeb(), { $patch: 'delete' })).toStrictEqual({})
  })

  it('$retainKeys clears live keys it does not list before merging', () => {
    const live = { spec: { strategy: { type: 'Recreate' } } }
    const patch = {
      spec: {
        strategy: {
          $retainKeys: ['type', 'rollingUpdate'],
          type: 'RollingUpdate',
          rollingUpdate: { maxSurge: '1' },
        },
      },
    }
    expect(smp(live, patch)).toStrictEqual({
      spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '1' } } },
    })
  })

  it('a strategy patch without $retainKeys keeps rollingUpdate (plain merge)', () => {
    const result = smp(liveWeb(), { spec: { strategy: { type: 'Recreate' } } }) as ReturnType<
      typeof liveWeb
    >
    expect(result.spec.strategy).toStrictEqual({
      type: 'Recreate',
      rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
    })
  })

  it('directives in new maps and list elements never reach the result', () => {
    const live = { spec: { template: { spec: { containers: [{ name: 'a' }] } } } }
    const patch = {
      spec: {
        strategy: { $retainKeys: ['type'], type: 'Recreate' },
        template: {
          spec: {
            containers: [
              {
                name: 'b',
                '$setElementOrder/env': [{ name: 'X' }],
                env: [
                  { name: 'X', value: '1' },
                  { $patch: 'delete', name: 'Y' },
                ],
              },
            ],
          },
        },
      },
    }
    expect(smp(live, patch)).toStrictEqual({
      spec: {
        strategy: { type: 'Recreate' },
        template: {
          spec: { containers: [{ name: 'b', env: [{ name: 'X', value: '1' }] }, { name: 'a' }] },
        },
      },
    })
  })

  it('a deletion for a list the object does not have leaves it absent', () => {
    const live = { spec: { template: { spec: { containers: [{ name: 'a', image: 'x' }] } } } }
    const patch = {
      spec: {
        template: {
          spec: { containers: [{ name: 'a', env: [{ $patch: 'delete', name: 'GONE' }] }] },
        },
      },
    }
    expect(smp(live, patch)).toStrictEqual(live)
    const ordered = {
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'a', '$setElementOrder/env': [], env: [{ $patch: 'delete', name: 'GONE' }] },
            ],
          },
        },
      },
    }
    expect(smp(live, ordered)).toStrictEqual(live)
  })
})

describe('strategic merge patch: lists', () => {
  /** A workload whose pod template has these containers. */
  const withContainers = (containers: unknown[]) => ({
    spec: { template: { spec: { containers } } },
  })
  const names = (result: unknown) =>
    (result as ReturnType<typeof withContainers>).spec.template.spec.containers.map(
      (c) => (c as { name: string }).name,
    )

  it('merges elements by key and keeps live elements the patch does not name', () => {
    const live = withContainers([
      { name: 'a', image: 'a:1', args: ['x'] },
      { name: 'b', image: 'b:1' },
    ])
    expect(smp(live, withContainers([{ name: 'b', image: 'b:2' }]))).toStrictEqual(
      withContainers([
        { name: 'a', image: 'a:1', args: ['x'] },
        { name: 'b', image: 'b:2' },
      ]),
    )
  })

  it('puts a new element before the live ones when there is no $setElementOrder (upstream order)', () => {
    // The kubectl docs' `kubectl patch … containers: [{name: patch-demo-ctr-2 …}]` shows the new container first.
    expect(
      names(
        smp(
          withContainers([{ name: 'a' }, { name: 'b' }]),
          withContainers([{ name: 'c', image: 'redis' }]),
        ),
      ),
    ).toEqual(['c', 'a', 'b'])
  })

  it('$patch: delete elements remove the live element with that key', () => {
    const live = withContainers([{ name: 'a' }, { name: 'b' }, { name: 'c' }])
    expect(names(smp(live, withContainers([{ $patch: 'delete', name: 'b' }])))).toEqual(['a', 'c'])
  })

  it('an element {"$patch": "replace"} makes the rest of the list replace the live list', () => {
    const live = withContainers([
      { name: 'a', image: 'a:1' },
      { name: 'b', image: 'b:1' },
    ])
    const patch = withContainers([{ name: 'c', image: 'c:1' }, { $patch: 'replace' }])
    expect(smp(live, patch)).toStrictEqual(withContainers([{ name: 'c', image: 'c:1' }]))
    expect(smp(live, withContainers([{ $patch: 'replace' }]))).toStrictEqual(withContainers([]))
  })

  it('replaces atomic lists wholesale (tolerations, args)', () => {
    const live = liveAB()
    const result = smp(live, {
      spec: { template: { spec: { tolerations: [{ key: 'z', operator: 'Exists' }] } } },
    }) as ReturnType<typeof liveAB>
    expect(result.spec.template.spec.tolerations).toStrictEqual([{ key: 'z', operator: 'Exists' }])
  })

  it('merges the merge-key list of a map-valued volume with $retainKeys (configMap → secret)', () => {
    const live = {
      spec: {
        template: {
          spec: {
            volumes: [
              { name: 'v', configMap: { name: 'c' } },
              { name: 'w', emptyDir: {} },
            ],
          },
        },
      },
    }
    const patch = {
      spec: {
        template: {
          spec: {
            volumes: [{ name: 'v', $retainKeys: ['name', 'secret'], secret: { secretName: 's' } }],
          },
        },
      },
    }
    expect(smp(live, patch)).toStrictEqual({
      spec: {
        template: {
          spec: {
            volumes: [
              { name: 'v', secret: { secretName: 's' } },
              { name: 'w', emptyDir: {} },
            ],
          },
        },
      },
    })
  })
})

describe('strategic merge patch: primitive lists (finalizers)', () => {
  const meta = (finalizers: string[]) => ({ metadata: { name: 'x', finalizers } })

  it.each([
    [
      'adds a new value (in front, as upstream orders it)',
      ['a', 'b'],
      { finalizers: ['c'] },
      ['c', 'a', 'b'],
    ],
    ['takes the union without duplicates', ['a', 'b'], { finalizers: ['b', 'c'] }, ['a', 'b', 'c']],
    [
      '$deleteFromPrimitiveList removes values',
      ['a', 'b', 'c'],
      { '$deleteFromPrimitiveList/finalizers': ['a', 'c'] },
      ['b'],
    ],
    [
      'deleting an absent value is a no-op',
      ['a'],
      { '$deleteFromPrimitiveList/finalizers': ['zz'] },
      ['a'],
    ],
    [
      'add and delete in one patch',
      ['a', 'b'],
      { finalizers: ['c'], '$deleteFromPrimitiveList/finalizers': ['a'] },
      ['c', 'b'],
    ],
    [
      'apply-style: $setElementOrder keeps a controller-added value in front',
      ['x', 'a'],
      { '$setElementOrder/finalizers': ['a', 'b'], finalizers: ['b'] },
      ['x', 'a', 'b'],
    ],
  ])('%s', (_name, live, patch, expected) => {
    expect(smp(meta(live), { metadata: patch })).toStrictEqual(meta(expected))
  })

  it('a deletion list for an absent field does not create it', () => {
    expect(
      smp(
        { metadata: { name: 'x' } },
        { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } },
      ),
    ).toStrictEqual({
      metadata: { name: 'x' },
    })
  })
})

describe('strategic merge patch: $setElementOrder', () => {
  const envOf = (env: unknown[]) => ({
    spec: { template: { spec: { containers: [{ name: 'c', env }] } } },
  })
  const e = (...names: string[]) => names.map((name) => ({ name, value: name.toLowerCase() }))
  const order = (...names: string[]) => names.map((name) => ({ name }))
  const patchEnv = (setOrder: unknown[], env?: unknown[]) => ({
    spec: {
      template: {
        spec: {
          containers: [
            env === undefined
              ? { name: 'c', '$setElementOrder/env': setOrder }
              : { name: 'c', '$setElementOrder/env': setOrder, env },
          ],
        },
      },
    },
  })

  it.each([
    [
      'reorders without a patch list',
      e('A', 'B', 'C'),
      patchEnv(order('C', 'B', 'A')),
      e('C', 'B', 'A'),
    ],
    [
      'live-only elements come first when they preceded the ordered ones',
      e('X', 'A', 'B'),
      patchEnv(order('B', 'A')),
      e('X', 'B', 'A'),
    ],
    [
      'a live-only element keeps its slot between ordered ones',
      e('A', 'X', 'B'),
      patchEnv(order('A', 'B')),
      e('A', 'X', 'B'),
    ],
    [
      'a live-only element at the end stays last',
      e('A', 'B', 'X'),
      patchEnv(order('B', 'A')),
      e('B', 'A', 'X'),
    ],
    [
      'names that do not exist are ignored',
      e('A', 'B'),
      patchEnv(order('B', 'GHOST', 'A')),
      e('B', 'A'),
    ],
    [
      'a new element goes where the order puts it',
      e('A', 'B'),
      patchEnv(order('A', 'N', 'B'), e('N')),
      e('A', 'N', 'B'),
    ],
    [
      'a deleted element leaves the order',
      e('A', 'B', 'C'),
      patchEnv(order('C', 'A'), [{ $patch: 'delete', name: 'B' }]),
      e('C', 'A'),
    ],
    ['an empty order changes nothing', e('B', 'A'), patchEnv([]), e('B', 'A')],
  ])('%s', (_name, live, patch, expected) => {
    expect(smp(envOf(live), patch)).toStrictEqual(envOf(expected))
  })

  it('orders a merged primitive list by value', () => {
    const live = { metadata: { finalizers: ['a', 'b', 'c'] } }
    expect(
      smp(live, { metadata: { '$setElementOrder/finalizers': ['c', 'a', 'b'] } }),
    ).toStrictEqual({
      metadata: { finalizers: ['c', 'a', 'b'] },
    })
  })

  it('rejects a patch list whose order contradicts the directive', () => {
    const err = patchError(() => smp(envOf(e('A', 'B')), patchEnv(order('A', 'B'), e('B', 'A'))))
    expect(err.code).toBe(500)
    expect(err.message).toBe(
      "The order in patch list:\n[map[name:B value:b] map[name:A value:a]]\n doesn't match $setElementOrder list:\n[map[name:A] map[name:B]]\n",
    )
  })
})

describe('strategic merge patch: invalid patches', () => {
  it.each([
    [
      'unknown $patch on a map',
      { spec: { strategy: { $patch: 'unknown', type: 'Recreate' } } },
      500,
      'unknown patch type: unknown in map: map[$patch:unknown type:Recreate]',
    ],
    [
      'unknown $patch on a list element',
      { spec: { template: { spec: { containers: [{ $patch: 'bogus', name: 'a' }] } } } },
      500,
      'unknown patch type: bogus in map: map[$patch:bogus name:a]',
    ],
    [
      'a merge-key list element without its key',
      { spec: { template: { spec: { containers: [{ image: 'x' }] } } } },
      500,
      'map: map[image:x] does not contain declared merge key: name',
    ],
    [
      'a delete directive without the merge key',
      { spec: { template: { spec: { containers: [{ $patch: 'delete' }] } } } },
      500,
      'map: map[$patch:delete] does not contain declared merge key: name',
    ],
    [
      '$patch: merge in a list',
      { spec: { template: { spec: { containers: [{ $patch: 'merge' }] } } } },
      500,
      'merging lists cannot yet be specified in the patch',
    ],
    [
      '$retainKeys that is not a list',
      { spec: { strategy: { $retainKeys: 'type' } } },
      400,
      'invalid patch format of retainKeys',
    ],
    [
      'a key outside $retainKeys',
      { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: {} } } },
      422,
      "patch content doesn't match retainKeys list",
    ],
    [
      'mixed element types in a merge list',
      { metadata: { finalizers: [{ a: 1 }] } },
      500,
      'list element types are not identical: [[a] [map[a:1]]]',
    ],
    [
      'a list of lists',
      { metadata: { finalizers: [['a']] } },
      422,
      'lists of lists are not supported',
    ],
  ])('%s', (_name, patch, code, message) => {
    const live = {
      metadata: { finalizers: ['a'] },
      spec: { template: { spec: { containers: [{ name: 'a' }] } } },
    }
    const err = patchError(() => smp(live, patch))
    expect(err.message).toBe(message)
    expect(err.code).toBe(code)
  })

  it('rejects a body that is not an object', () => {
    const err = patchError(() => smp(liveWeb(), [{ op: 'add' }]))
    expect(err.code).toBe(400)
    expect(err.message).toBe(
      'json: cannot unmarshal array into Go value of type map[string]interface {}',
    )
  })
})

describe('strategic merge patch on a kind without a schema', () => {
  it('acts as a JSON merge patch (lists replaced) and strips directives', () => {
    const live = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      spec: { size: 3, tags: ['x', 'y'], nested: { a: 1, b: 2 } },
    }
    const patch = {
      metadata: { annotations: { k: 'v' } },
      spec: {
        size: 4,
        tags: ['a'],
        nested: { a: null, $retainKeys: ['a', 'b'] },
        '$setElementOrder/items': [{ name: 'y' }],
        items: [
          { name: 'x', $patch: 'delete' },
          { name: 'y', v: 1 },
        ],
      },
    }
    expect(smp(live, patch, undefined)).toStrictEqual({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { annotations: { k: 'v' } },
      spec: { size: 4, tags: ['a'], nested: { b: 2 }, items: [{ name: 'y', v: 1 }] },
    })
  })

  it('treats an unknown struct name like no schema', () => {
    expect(smp({ spec: { l: [1, 2] } }, { spec: { l: [3] } }, 'io.example.v1.Nope')).toStrictEqual({
      spec: { l: [3] },
    })
  })
})

describe('strategic merge patch against the served schemas', () => {
  const deployment = kindStruct('apps', 'v1', 'Deployment')
  const node = kindStruct('', 'v1', 'Node')

  it('knows the Deployment and Node structs', () => {
    expect(deployment).toBe('io.k8s.api.apps.v1.Deployment')
    expect(node).toBe('io.k8s.api.core.v1.Node')
  })

  it('applies the first apply body to a Deployment', () => {
    expect(applyStrategicMergePatch(liveWeb(), applyBody1, deployment, realSchemas)).toStrictEqual(
      expectedWebAfterBody1,
    )
  })

  it('applies the second apply body to a Deployment', () => {
    expect(applyStrategicMergePatch(liveAB(), applyBody2, deployment, realSchemas)).toStrictEqual(
      expectedABAfterBody2,
    )
  })

  it('merges containers by name and replaces args on a Deployment', () => {
    const patch = {
      spec: { template: { spec: { containers: [{ name: 'sidecar', args: ['sleep', '10'] }] } } },
    }
    const result = applyStrategicMergePatch(
      liveWeb(),
      patch,
      deployment,
      realSchemas,
    ) as ReturnType<typeof liveWeb>
    expect(result.spec.template.spec.containers).toStrictEqual([
      liveWeb().spec.template.spec.containers[0],
      { name: 'sidecar', image: 'busybox:1.36', args: ['sleep', '10'] },
    ])
  })

  it('cordons and uncordons a Node', () => {
    const n = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1', labels: { a: 'b' } },
      spec: { podCIDRs: ['10.0.0.0/24'] },
    }
    const cordoned = applyStrategicMergePatch(
      n,
      { spec: { unschedulable: true } },
      node,
      realSchemas,
    )
    expect(cordoned).toStrictEqual({
      ...n,
      spec: { podCIDRs: ['10.0.0.0/24'], unschedulable: true },
    })
    expect(
      applyStrategicMergePatch(cordoned, { spec: { unschedulable: null } }, node, realSchemas),
    ).toStrictEqual(n)
  })
})

// ---- JSON merge patch (RFC 7386) ----

describe('JSON merge patch', () => {
  // RFC 7386 Appendix A
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('RFC 7386 example %#', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toStrictEqual(expected)
  })

  it('kubectl label / unlabel', () => {
    const pod = { metadata: { name: 'web-1', labels: { app: 'web' } } }
    const labeled = applyMergePatch(pod, { metadata: { labels: { tier: 'frontend' } } })
    expect(labeled).toStrictEqual({
      metadata: { name: 'web-1', labels: { app: 'web', tier: 'frontend' } },
    })
    expect(applyMergePatch(labeled, { metadata: { labels: { tier: null } } })).toStrictEqual(pod)
  })

  it('kubectl scale', () => {
    const scale = { kind: 'Scale', spec: { replicas: 2 }, status: { replicas: 2 } }
    expect(applyMergePatch(scale, { spec: { replicas: 5 } })).toStrictEqual({
      kind: 'Scale',
      spec: { replicas: 5 },
      status: { replicas: 2 },
    })
  })

  it('client-side apply of a custom resource replaces lists', () => {
    const cr = { spec: { size: 3, tags: ['a', 'b'] }, metadata: { annotations: { x: '1' } } }
    const patch = {
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
      spec: { size: 4, tags: ['a'] },
    }
    expect(applyMergePatch(cr, patch)).toStrictEqual({
      spec: { size: 4, tags: ['a'] },
      metadata: {
        annotations: { x: '1', 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
      },
    })
  })

  it('drops nulls inside objects of a patch array, as the apiserver does', () => {
    expect(applyMergePatch({}, { l: [{ a: 1, b: null }, null] })).toStrictEqual({
      l: [{ a: 1 }, null],
    })
  })

  it('does not mutate its inputs and shares nothing with them', () => {
    const target = deepFreeze({ a: { b: [1, 2] }, c: 'x' })
    const patch = deepFreeze({ a: { d: { e: 1 } }, c: null })
    const result = applyMergePatch(target, patch) as { a: { b: number[]; d: { e: number } } }
    expect(result).toStrictEqual({ a: { b: [1, 2], d: { e: 1 } } })
    result.a.b.push(3)
    result.a.d.e = 2
    expect(target.a.b).toEqual([1, 2])
    expect(patch.a.d.e).toBe(1)
  })

  it('keeps a __proto__ member as data', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}')
    const result = applyMergePatch({}, patch) as Record<string, unknown>
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

// ---- JSON patch (RFC 6902) ----

describe('JSON patch', () => {
  // RFC 6902 Appendix A
  it.each([
    [
      'A.1 adding an object member',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux' }],
      { baz: 'qux', foo: 'bar' },
    ],
    [
      'A.2 adding an array element',
      { foo: ['bar', 'baz'] },
      [{ op: 'add', path: '/foo/1', value: 'qux' }],
      { foo: ['bar', 'qux', 'baz'] },
    ],
    [
      'A.3 removing an object member',
      { baz: 'qux', foo: 'bar' },
      [{ op: 'remove', path: '/baz' }],
      { foo: 'bar' },
    ],
    [
      'A.4 removing an array element',
      { foo: ['bar', 'qux', 'baz'] },
      [{ op: 'remove', path: '/foo/1' }],
      { foo: ['bar', 'baz'] },
    ],
    [
      'A.5 replacing a value',
      { baz: 'qux', foo: 'bar' },
      [{ op: 'replace', path: '/baz', value: 'boo' }],
      { baz: 'boo', foo: 'bar' },
    ],
    [
      'A.6 moving a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    [
      'A.7 moving an array element',
      { foo: ['all', 'grass', 'cows', 'eat'] },
      [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      { foo: ['all', 'cows', 'eat', 'grass'] },
    ],
    [
      'A.8 testing a value: success',
      { baz: 'qux', foo: ['a', 2, 'c'] },
      [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      { baz: 'qux', foo: ['a', 2, 'c'] },
    ],
    [
      'A.10 adding a nested member object',
      { foo: 'bar' },
      [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      { foo: 'bar', child: { grandchild: {} } },
    ],
    [
      'A.11 ignoring unrecognized elements',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }],
      { foo: 'bar', baz: 'qux' },
    ],
    [
      'A.14 ~ escape ordering',
      { '/': 9, '~1': 10 },
      [{ op: 'test', path: '/~01', value: 10 }],
      { '/': 9, '~1': 10 },
    ],
    [
      'A.16 adding an array value',
      { foo: ['bar'] },
      [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      { foo: ['bar', ['abc', 'def']] },
    ],
    [
      'copy',
      { a: { b: [1] } },
      [{ op: 'copy', from: '/a', path: '/c' }],
      { a: { b: [1] }, c: { b: [1] } },
    ],
    [
      'add appends at the array length',
      { l: [1] },
      [{ op: 'add', path: '/l/1', value: 2 }],
      { l: [1, 2] },
    ],
    ['add replaces an existing member', { a: 1 }, [{ op: 'add', path: '/a', value: 2 }], { a: 2 }],
    [
      '~1 names a key with a slash',
      { metadata: { labels: { 'app.kubernetes.io/name': 'x' } } },
      [{ op: 'remove', path: '/metadata/labels/app.kubernetes.io~1name' }],
      { metadata: { labels: {} } },
    ],
    [
      'replace of an absent member adds it (apiserver leniency)',
      { metadata: {} },
      [{ op: 'replace', path: '/metadata/labels', value: { a: 'b' } }],
      { metadata: { labels: { a: 'b' } } },
    ],
    [
      'test of an absent member against null passes',
      { a: 1 },
      [{ op: 'test', path: '/b', value: null }],
      { a: 1 },
    ],
    [
      'test compares objects regardless of key order',
      { a: { x: 1, y: [1, { z: 2 }] } },
      [{ op: 'test', path: '/a', value: { y: [1, { z: 2 }], x: 1 } }],
      { a: { x: 1, y: [1, { z: 2 }] } },
    ],
    ['an empty or null patch is a no-op', { a: 1 }, null, { a: 1 }],
  ])('%s', (_name, doc, ops, expected) => {
    expect(applyJsonPatch(doc, ops)).toStrictEqual(expected)
  })

  it.each([
    [
      'A.9 testing a value: error',
      { baz: 'qux' },
      [{ op: 'test', path: '/baz', value: 'bar' }],
      'testing value /baz failed: test failed',
    ],
    [
      'A.12 adding to a nonexistent target',
      { foo: 'bar' },
      [{ op: 'add', path: '/baz/bat', value: 'qux' }],
      'add operation does not apply: doc is missing path: "/baz/bat": missing value',
    ],
    [
      'A.15 comparing strings and numbers',
      { '/': 9, '~1': 10 },
      [{ op: 'test', path: '/~01', value: '10' }],
      'testing value /~01 failed: test failed',
    ],
    [
      'failing test of spec.replicas',
      { spec: { replicas: 2 } },
      [{ op: 'test', path: '/spec/replicas', value: 3 }],
      'testing value /spec/replicas failed: test failed',
    ],
    [
      'test of an absent member',
      { spec: {} },
      [{ op: 'test', path: '/spec/replicas', value: 3 }],
      'testing value /spec/replicas failed: test failed',
    ],
    [
      'remove of a missing member',
      { spec: {} },
      [{ op: 'remove', path: '/spec/foo' }],
      "error in remove for path: '/spec/foo': Unable to remove nonexistent key: foo: missing value",
    ],
    [
      'remove under a missing parent',
      { spec: {} },
      [{ op: 'remove', path: '/spec/affinity/nodeAffinity' }],
      'remove operation does not apply: doc is missing path: "/spec/affinity/nodeAffinity": missing value',
    ],
    [
      'remove past the end of an array',
      { l: [1] },
      [{ op: 'remove', path: '/l/1' }],
      "error in remove for path: '/l/1': Unable to access invalid index: 1: invalid index referenced",
    ],
    [
      'add past the end of an array',
      { l: [1] },
      [{ op: 'add', path: '/l/3', value: 0 }],
      "error in add for path: '/l/3': Unable to access invalid index: 3: invalid index referenced",
    ],
    [
      'add with a non-numeric index',
      { l: [1] },
      [{ op: 'add', path: '/l/x', value: 0 }],
      "error in add for path: '/l/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax",
    ],
    [
      'an index with a leading zero',
      { l: [1, 2] },
      [{ op: 'remove', path: '/l/01' }],
      'error in remove for path: \'/l/01\': strconv.Atoi: parsing "01": invalid syntax',
    ],
    [
      'replace past the end of an array',
      { l: [1] },
      [{ op: 'replace', path: '/l/1', value: 0 }],
      'replace operation does not apply: doc is missing key: /l/1: missing value',
    ],
    [
      'replace under a missing parent',
      {},
      [{ op: 'replace', path: '/spec/replicas', value: 1 }],
      'replace operation does not apply: doc is missing path: /spec/replicas: missing value',
    ],
    [
      'move from a missing member',
      { a: {} },
      [{ op: 'move', from: '/a/b', path: '/c' }],
      "error in move for path: 'b': Unable to remove nonexistent key: b: missing value",
    ],
    [
      'move into its own child',
      { a: { b: 1 } },
      [{ op: 'move', from: '/a', path: '/a/c' }],
      'move operation does not apply: doc is missing destination path: /a/c: missing value',
    ],
    [
      'copy from a missing member',
      { a: {} },
      [{ op: 'copy', from: '/a/b', path: '/c' }],
      "error in copy for from: '/a/b': Unable to get nonexistent key: b: missing value",
    ],
    [
      'a path without a leading slash',
      { a: 1 },
      [{ op: 'remove', path: 'a' }],
      'remove operation does not apply: doc is missing path: "a": missing value',
    ],
    [
      'the whole-document path',
      { a: 1 },
      [{ op: 'add', path: '', value: {} }],
      'add operation does not apply: doc is missing path: "": missing value',
    ],
    [
      'an operation without a path',
      { a: 1 },
      [{ op: 'add', value: 1 }],
      'add operation failed to decode path: missing value',
    ],
    ['an unknown op', { a: 1 }, [{ op: 'frobnicate', path: '/a' }], 'Unexpected kind: frobnicate'],
    ['a missing op', { a: 1 }, [{ path: '/a' }], 'Unexpected kind: unknown'],
    [
      'traversing a scalar',
      { a: 1 },
      [{ op: 'add', path: '/a/b', value: 1 }],
      'add operation does not apply: doc is missing path: "/a/b": missing value',
    ],
  ])('%s fails', (_name, doc, ops, message) => {
    const err = patchError(() => applyJsonPatch(doc, ops))
    expect(err.message).toBe(message)
    expect(err.code).toBe(422)
  })

  it('rejects a body that is not a list of operations with 400', () => {
    const notList = patchError(() => applyJsonPatch({}, { op: 'add' }))
    expect(notList.code).toBe(400)
    expect(notList.message).toBe(
      'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    )
    const notOp = patchError(() => applyJsonPatch({}, ['add']))
    expect(notOp.code).toBe(400)
    expect(notOp.message).toBe(
      'json: cannot unmarshal string into Go value of type jsonpatch.Operation',
    )
  })

  it('applies nothing when a later operation fails', () => {
    const doc = { spec: { replicas: 2 } }
    const ops = [
      { op: 'replace', path: '/spec/replicas', value: 5 },
      { op: 'test', path: '/spec/replicas', value: 6 },
    ]
    expect(() => applyJsonPatch(doc, ops)).toThrow(PatchError)
    expect(doc).toStrictEqual({ spec: { replicas: 2 } })
  })

  it('applies the rollout undo body', () => {
    const live = {
      metadata: { name: 'web', annotations: { 'deployment.kubernetes.io/revision': '3' } },
      spec: {
        replicas: 2,
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
        },
      },
    }
    const template = {
      metadata: { creationTimestamp: null, labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', resources: {} }] },
    }
    const ops = [
      { op: 'replace', path: '/spec/template', value: template },
      {
        op: 'replace',
        path: '/metadata/annotations',
        value: { 'deployment.kubernetes.io/revision': '3', 'kubernetes.io/change-cause': 'v1' },
      },
    ]
    expect(applyJsonPatch(live, ops)).toStrictEqual({
      metadata: {
        name: 'web',
        annotations: {
          'deployment.kubernetes.io/revision': '3',
          'kubernetes.io/change-cause': 'v1',
        },
      },
      spec: { replicas: 2, template },
    })
  })

  it('does not mutate its inputs and copies the values it inserts', () => {
    const doc = deepFreeze({ a: { b: [1, 2] } })
    const value = { x: [1] }
    const ops = deepFreeze([
      { op: 'add', path: '/a/b/-', value },
      { op: 'copy', from: '/a', path: '/c' },
    ])
    const result = applyJsonPatch(doc, ops) as { a: { b: unknown[] }; c: { b: unknown[] } }
    expect(result).toStrictEqual({ a: { b: [1, 2, { x: [1] }] }, c: { b: [1, 2, { x: [1] }] } })
    ;(result.a.b[2] as { x: number[] }).x.push(9)
    expect(value.x).toEqual([1])
    expect((result.c.b[2] as { x: number[] }).x).toEqual([1])
    expect(doc.a.b).toEqual([1, 2])
  })
})

describe('PatchError', () => {
  it('answers a failed JSON patch like kube-apiserver (422, generic message)', () => {
    const err = patchError(() =>
      applyJsonPatch({ spec: {} }, [{ op: 'test', path: '/spec/replicas', value: 1 }]),
    )
    expect(err).toBeInstanceOf(Error)
    expect(err.name).toBe('PatchError')
    expect(err.toStatus()).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    })
  })

  it('answers malformed directives with 400 BadRequest and other SMP errors with a reasonless 500', () => {
    expect(new PatchError('invalid patch format of retainKeys', 400).toStatus()).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'invalid patch format of retainKeys',
      reason: 'BadRequest',
      code: 400,
    })
    const status = patchError(() => smp({}, { spec: { strategy: { $patch: 'x' } } })).toStatus()
    expect(status).toStrictEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'unknown patch type: x in map: map[$patch:x]',
      code: 500,
    })
  })
})
