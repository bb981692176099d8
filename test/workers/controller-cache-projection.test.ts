import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:test'
import { controllerDefinition } from '../../src/controllers/registry'
import { ControllerRunner, defaultRunnerOptions } from '../../src/controllers/runtime/runner'
import { ResourceCache } from '../../src/controllers/runtime/cache'
import { lastAppliedAnnotation } from '../../src/controllers/runtime/projection'
import { pods } from '../../src/controllers/resources'
import { api } from './helpers'
import { newPod } from '../helpers'

const count = 20

/** A pod as `kubectl apply` writes it (its last-applied annotation), with ~2 KB of environment. */
function appliedPod(i: number) {
  const spec = {
    containers: [
      {
        name: 'app',
        image: 'busybox',
        command: ['sleep', '3600'],
        env: Array.from({ length: 40 }, (_, j) => ({
          name: `SETTING_${j}`,
          value: `value-${i}-${j}-`.padEnd(32, 'x'),
        })),
      },
    ],
  }
  const manifest = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `proj-${i}`, namespace: 'default', labels: { app: 'proj' } },
    spec,
  }
  return {
    ...manifest,
    metadata: {
      ...manifest.metadata,
      annotations: { [lastAppliedAnnotation]: JSON.stringify(manifest) + '\n' },
    },
  }
}

describe('controller caches hold projections', () => {
  it('drop managedFields and the last-applied annotation, keep what controllers read, and shrink each cached pod', async () => {
    for (let i = 0; i < count; i++) {
      const res = await api(
        'POST',
        '/api/v1/namespaces/default/pods?fieldManager=kubectl-client-side-apply',
        appliedPod(i),
      )
      expect(res.status).toBe(201)
      // The node's status report, as the agent makes it: a second managedFields entry.
      const status = {
        status: {
          phase: 'Running',
          podIP: `10.244.0.${i + 2}`,
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      }
      expect(
        (
          await api(
            'PATCH',
            `/api/v1/namespaces/default/pods/proj-${i}/status?fieldManager=edgeplane-agent`,
            status,
            'application/merge-patch+json',
          )
        ).status,
      ).toBe(200)
    }
    const stored = (await api('GET', '/api/v1/namespaces/default/pods?labelSelector=app%3Dproj'))
      .json.items as any[]
    expect(stored).toHaveLength(count)
    expect(stored[0].metadata.managedFields.length).toBeGreaterThanOrEqual(2)
    expect(stored[0].metadata.annotations[lastAppliedAnnotation]).toBeDefined()

    // Before: what a cache holding whole objects would keep.
    const whole = new ResourceCache({ measure: true })
    whole.reset(stored, 0)

    // After: the ReplicaSet controller's own caches, filled by a pass as its host runs it.
    const runner = new ControllerRunner(
      env,
      controllerDefinition('replicaset', env),
      defaultRunnerOptions,
    )
    await runner.pass()
    const cached = runner.caches
      .list(pods, 'default')
      .filter((p) => p.metadata.labels?.app === 'proj')
    expect(cached).toHaveLength(count)
    for (const p of cached) {
      expect(p.metadata.managedFields).toBeUndefined()
      expect(p.metadata.annotations?.[lastAppliedAnnotation]).toBeUndefined()
      // What the ReplicaSet controller reads is all there, and nothing of the containers it does not.
      expect(p.metadata.labels).toEqual({ app: 'proj' })
      expect((p.status as any).phase).toBe('Running')
      expect((p.status as any).conditions).toEqual([{ type: 'Ready', status: 'True' }])
      expect((p.spec as any).containers).toBeUndefined()
    }
    const projected = runner.caches.of(pods)
    const before = whole.bytes / count
    const after = projected.bytes / projected.size
    expect(after).toBeLessThan(before * 0.7)
  })

  it('index pods by owner uid and by node, and keep the indexes right as pods move', async () => {
    const cache = new ResourceCache()
    /** A pod as cached, on a node and owned by a ReplicaSet if named. */
    const cached = (name: string, node: string | undefined, owner?: string) =>
      newPod(name, { nodeName: node, owner })
    cache.reset([cached('a', 'n1', 'rs-1'), cached('b', 'n1'), cached('c', undefined, 'rs-1')], 1)
    expect(
      cache
        .onNode('n1')
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['a', 'b'])
    expect(
      cache
        .ownedBy('rs-1')
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['a', 'c'])
    cache.apply('MODIFIED', {
      ...cached('c', 'n2', 'rs-1'),
      metadata: { ...cached('c', 'n2', 'rs-1').metadata, resourceVersion: '2' },
    })
    expect(cache.onNode('n2').map((p) => p.metadata.name)).toEqual(['c'])
    cache.apply('DELETED', {
      ...cached('a', 'n1', 'rs-1'),
      metadata: { ...cached('a', 'n1', 'rs-1').metadata, resourceVersion: '3' },
    })
    expect(cache.onNode('n1').map((p) => p.metadata.name)).toEqual(['b'])
    expect(cache.ownedBy('rs-1').map((p) => p.metadata.name)).toEqual(['c'])
  })
})
