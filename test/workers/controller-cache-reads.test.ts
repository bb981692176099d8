import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:test'
import { controllerDefinition, controllerNames } from '../../src/controllers/registry'
import { ControllerRunner, defaultRunnerOptions } from '../../src/controllers/runtime/runner'
import { ResourceCache } from '../../src/controllers/runtime/cache'
import { projectionFor } from '../../src/controllers/runtime/projection'
import { pods, sameResource } from '../../src/controllers/resources'
import { podReads } from '../../src/controllers/shared/pod-reads'
import type { ControllerDefinition } from '../../src/controllers/runtime/types'
import { computePodStatus } from '../../src/agent/pod-status'
import { controllersOfHost, sharedPodsHost } from '../../src/controllers/hosts'
import { runnersSharingCaches } from '../../src/controllers/runtime/shared-caches'
import { api, configMap } from './helpers'
import { podManifest } from '../helpers'

const count = 10
const ns = 'reads'
/** The scale bench's pod: 4,096 bytes of request JSON, most of it its container's environment. */
const podBytes = 4096

function scalePod(name: string) {
  const withConfig = (value: string) =>
    podManifest(name, {
      namespace: ns,
      labels: { app: 'scale' },
      containers: [{ name: 'main', image: 'busybox', env: [{ name: 'CONFIG', value }] }],
    })
  return withConfig('c'.repeat(podBytes - JSON.stringify(withConfig('')).length))
}

/** Pods as the scale bench leaves them: created, bound, and reported Running by their node. */
async function runningPods(): Promise<any[]> {
  await api('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ns },
  })
  for (let i = 0; i < count; i++) {
    const name = `p-${i}`
    expect((await api('POST', `/api/v1/namespaces/${ns}/pods`, scalePod(name))).status).toBe(201)
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name },
      target: { apiVersion: 'v1', kind: 'Node', name: 'sim-1' },
    }
    expect(
      (await api('POST', `/api/v1/namespaces/${ns}/pods/${name}/binding`, binding)).status,
    ).toBe(201)
    const pod = (await api('GET', `/api/v1/namespaces/${ns}/pods/${name}`)).json
    const now = Date.now()
    const status = computePodStatus({
      pod,
      containers: [
        {
          name: 'main',
          state: { running: { startedAt: new Date(now).toISOString() } },
          ready: true,
          restartCount: 0,
          started: true,
          containerID: `sim://${name}`,
          imageID: 'sim://busybox',
        },
      ],
      hostIP: '10.0.0.1',
      podIP: `10.244.0.${i + 2}`,
      now,
    })
    expect(
      (
        await api(
          'PATCH',
          `/api/v1/namespaces/${ns}/pods/${name}/status?fieldManager=edgeplane-agent`,
          { status },
          'application/merge-patch+json',
        )
      ).status,
    ).toBe(200)
  }
  const items = (await api('GET', `/api/v1/namespaces/${ns}/pods`)).json.items as any[]
  expect(items).toHaveLength(count)
  return items
}

let created: Promise<any[]> | undefined
const podsOnce = () => (created ??= runningPods())

const perPod = (stored: any[], project?: (o: any) => any) => {
  const cache = new ResourceCache({ project, measure: true })
  cache.reset(stored, 0)
  return Math.round(cache.bytes / count)
}

describe('controllers cache only the fields they read', () => {
  it('each pod-caching controller keeps a fraction of a 4 KB pod, and its host caches exactly that', async () => {
    const stored = await podsOnce()
    const bookkeepingOnly = perPod(stored, projectionFor(pods))
    const sizes: Record<string, number> = {}
    for (const name of controllerNames()) {
      const def = controllerDefinition(name, env)
      if (!def.watches.kinds.some((r) => sameResource(r, pods))) continue
      sizes[name] = perPod(stored, projectionFor(pods, def.watches.reads?.(pods)))
    }
    // Every controller that caches pods declares what it reads of them.
    for (const [name, size] of Object.entries(sizes))
      expect(size, name).toBeLessThan(bookkeepingOnly / 2)
    // Those that read nothing of the containers keep a few hundred bytes of the 4 KB.
    for (const name of [
      'node-lifecycle',
      'garbage-collector',
      'pod-gc',
      'replicaset',
      'deployment',
      'statefulset',
      'job',
      'endpoints',
      'endpointslice',
      'disruption',
    ]) {
      expect(sizes[name], name).toBeLessThan(1500)
    }

    // The node lifecycle host, filled by a pass as it runs, holds exactly its projection.
    const runner = new ControllerRunner(
      env,
      controllerDefinition('node-lifecycle', env),
      defaultRunnerOptions,
    )
    await runner.pass()
    const cached = runner.caches.list(pods, ns)
    expect(cached).toHaveLength(count)
    for (const p of cached) {
      // its node, and the tolerations admission gave it (which eviction reads)
      expect(Object.keys(p.spec as object).sort()).toEqual(['nodeName', 'tolerations'])
      expect(Object.keys(p.status as object)).toEqual(['conditions'])
      expect(p.metadata.uid).toBeDefined()
    }
    expect(Math.round(runner.caches.of(pods).bytes / runner.caches.of(pods).size)).toBe(
      sizes['node-lifecycle'],
    )
  })

  it('the controllers that watch pods share one host, which holds each pod once: the union of what they read', async () => {
    const stored = await podsOnce()
    const names = controllersOfHost(sharedPodsHost)
    expect(names).toEqual(
      controllerNames().filter((name) =>
        controllerDefinition(name, env).watches.kinds.some((r) => sameResource(r, pods)),
      ),
    )
    const alone = names.map((name) =>
      perPod(stored, projectionFor(pods, controllerDefinition(name, env).watches.reads?.(pods))),
    )

    expect(
      (
        await api(
          'POST',
          `/api/v1/namespaces/${ns}/configmaps`,
          configMap('settings', { big: 'x'.repeat(2000) }),
        )
      ).status,
    ).toBe(201)
    const runners = runnersSharingCaches(
      env,
      names.map((name) => controllerDefinition(name, env)),
    )
    for (const runner of runners) await runner.pass()
    // The garbage collector and the quota controller only need to know a ConfigMap is there.
    const settings = runners[0]!.caches.get(
      { group: '', version: 'v1', plural: 'configmaps' },
      ns,
      'settings',
    )
    expect(settings?.metadata.name).toBe('settings')
    expect(settings?.data).toBeUndefined()
    expect(runners.every((r) => r.caches === runners[0]!.caches)).toBe(true)
    const cached = runners[0]!.caches.list(pods, ns)
    expect(cached).toHaveLength(count)
    const shared = perPod(cached)
    const sum = alone.reduce((a, b) => a + b, 0)
    // The union of what they read: at least what the widest one reads, far less than a copy each.
    expect(shared).toBeGreaterThanOrEqual(Math.max(...alone))
    expect(shared).toBeLessThan(Math.max(...alone) * 1.5)
    expect(shared * 4).toBeLessThan(sum)
    // Every field any of them reads is there: the Endpoints controllers' addresses, the scheduler's containers.
    for (const p of cached) {
      expect((p.status as any).podIP).toBeDefined()
      expect((p.spec as any).containers[0].name).toBe('main')
      expect((p.spec as any).containers[0].env).toBeUndefined()
    }
  })

  it('a controller may not write back whole what it caches projected', async () => {
    const name = 'guarded'
    expect((await api('POST', '/api/v1/namespaces/default/pods', podManifest(name))).status).toBe(
      201,
    )
    const status = {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'main',
          ready: true,
          restartCount: 0,
          image: 'busybox',
          imageID: '',
          state: { running: {} },
          lastState: {},
        },
      ],
    }
    expect(
      (
        await api(
          'PATCH',
          `/api/v1/namespaces/default/pods/${name}/status`,
          { status },
          'application/merge-patch+json',
        )
      ).status,
    ).toBe(200)
    // Caches a pod's phase only, and replaces its status: that would erase its containerStatuses.
    const def: ControllerDefinition = {
      name: 'guarded',
      watches: {
        kinds: [pods],
        reads: podReads({ status: { phase: true } }, false),
        keysFor: (_r, o) => (o.metadata.name === name ? [`default/${name}`] : []),
        allKeys: () => [`default/${name}`],
      },
      reconcile: (key, cache) => {
        const pod = cache.get(pods, 'default', key.split('/')[1]!)
        return {
          actions: pod
            ? [
                {
                  type: 'updateStatus',
                  resource: pods,
                  object: { ...pod, status: { ...(pod.status as object), reason: 'Guarded' } },
                },
              ]
            : [],
        }
      },
    }
    const report = await new ControllerRunner(env, def, defaultRunnerOptions).pass()
    expect(report.failed).toBe(1)
    const after = (await api('GET', `/api/v1/namespaces/default/pods/${name}`)).json
    expect(after.status.containerStatuses).toHaveLength(1)
    expect(after.status.reason).toBeUndefined()
  })
})
