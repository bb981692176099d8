import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { stream } from './helpers/manifests'
import { waitFor } from './helpers/wait'

// Needs the statefulset and daemonset controllers registered in src/controllers/registry.ts.
let server: TestServer
const agents: AgentProcess[] = []
const run = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

const template = (app: string, image = 'busybox') => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'main', image }] },
})

async function readyNodes(): Promise<number> {
  const nodes = await json(['get', 'nodes', '-o', 'json'])
  return nodes.items.filter((n: any) =>
    n.status.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True'),
  ).length
}

beforeAll(async () => {
  server = await startServer()
  agents.push(
    startAgent(server.kubeconfig, ['--name', 'east', '--runtime', 'sim', '--lease-seconds', '1']),
  )
  agents.push(
    startAgent(server.kubeconfig, ['--name', 'west', '--runtime', 'sim', '--lease-seconds', '1']),
  )
  await waitFor(async () => (await readyNodes()) === 2, {
    what: 'two Ready nodes',
    timeoutMs: 30_000,
  })
})

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()))
  await server?.dispose()
})

describe('statefulset', () => {
  it('creates db-0..2 in order, reports rollout status, and scales down from the highest ordinal', async () => {
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db' },
      spec: {
        replicas: 3,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
        template: template('db'),
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    }
    expect((await run(['apply', '-f', '-'], stream(sts))).code).toBe(0)
    const status = await run(['rollout', 'status', 'sts/db', '--timeout=90s'])
    expect(status.stdout).toContain('partitioned roll out complete: 3 new pods have been updated')
    const pods = await json(['get', 'pods', '-l', 'app=db', '-o', 'json'])
    const byName = new Map<string, any>(pods.items.map((p: any) => [p.metadata.name, p]))
    expect([...byName.keys()].sort()).toEqual(['db-0', 'db-1', 'db-2'])
    // OrderedReady: each pod was created only after its predecessor was Ready.
    const created = (n: string) => Date.parse(byName.get(n).metadata.creationTimestamp)
    const readyAt = (n: string) =>
      Date.parse(
        byName.get(n).status.conditions.find((c: any) => c.type === 'Ready').lastTransitionTime,
      )
    expect(created('db-1')).toBeGreaterThanOrEqual(readyAt('db-0'))
    expect(created('db-2')).toBeGreaterThanOrEqual(readyAt('db-1'))
    expect(byName.get('db-1').metadata.labels['statefulset.kubernetes.io/pod-name']).toBe('db-1')

    const gone: string[] = []
    expect((await run(['scale', 'sts', 'db', '--replicas=1'])).code).toBe(0)
    await waitFor(
      async () => {
        const names = (await json(['get', 'pods', '-l', 'app=db', '-o', 'json'])).items
          .filter((p: any) => !p.metadata.deletionTimestamp)
          .map((p: any) => p.metadata.name)
        for (const n of ['db-2', 'db-1']) if (!names.includes(n) && !gone.includes(n)) gone.push(n)
        return names.length === 1 && names[0] === 'db-0'
      },
      { what: 'db scaled to 1', timeoutMs: 60_000, intervalMs: 100 },
    )
    expect(gone).toEqual(['db-2', 'db-1'])
    // Claims outlive the pods that used them, as upstream's default retention policy keeps them.
    const claims = (await json(['get', 'pvc', '-o', 'json'])).items
      .map((c: any) => c.metadata.name)
      .sort()
    expect(claims).toEqual(['data-db-0', 'data-db-1', 'data-db-2'])

    const history = await run(['rollout', 'history', 'sts/db'])
    expect(history.code).toBe(0)
    expect(history.stdout).toMatch(/REVISION/)
  })
})

describe('daemonset', () => {
  it('runs one pod per node, follows a joining node, and reports rollout status', async () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
        template: template('agent'),
      },
    }
    expect((await run(['apply', '-f', '-'], stream(ds))).code).toBe(0)
    const status = await run(['rollout', 'status', 'ds/agent', '--timeout=90s'])
    expect(status.stdout).toContain('daemon set "agent" successfully rolled out')
    const placed = async () =>
      (await json(['get', 'pods', '-l', 'app=agent', '-o', 'json'])).items
        .map((p: any) => p.spec.nodeName)
        .sort()
    expect(await placed()).toEqual(['east', 'west'])

    agents.push(
      startAgent(server.kubeconfig, [
        '--name',
        'north',
        '--runtime',
        'sim',
        '--lease-seconds',
        '1',
      ]),
    )
    await waitFor(async () => (await placed()).join(',') === 'east,north,west', {
      what: 'a daemon pod on north',
      timeoutMs: 60_000,
    })
    expect((await run(['rollout', 'status', 'ds/agent', '--timeout=60s'])).stdout).toContain(
      'successfully rolled out',
    )
    expect((await run(['rollout', 'history', 'ds/agent'])).code).toBe(0)
  })
})
