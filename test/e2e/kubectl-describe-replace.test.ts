import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { deployment, podManifest, stream, type Manifest } from './helpers/manifests'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

const NODE = 'describe-node'

describe('kubectl describe and replace --force', () => {
  let server: TestServer
  let agent: AgentProcess | undefined
  const run = (args: string[], stdin?: string) =>
    kubectl(args, { kubeconfig: server.kubeconfig, stdin, timeoutMs: 60_000 })
  const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })
  const ok = async (args: string[], stdin?: string) => {
    const res = await run(args, stdin)
    if (res.code !== 0)
      throw new Error(`kubectl ${args.join(' ')} exited ${res.code}: ${res.stderr}`)
    return res.stdout
  }
  const apply = (...manifests: Manifest[]) => ok(['apply', '-f', '-'], stream(...manifests))
  /** The value printed on a `Key:   value` line of describe output. */
  const field = (out: string, key: string) =>
    new RegExp(`^${key}:\\s+(.*)$`, 'm').exec(out)?.[1]?.trim()

  beforeAll(async () => {
    server = await startServer()
    agent = startAgent(server.kubeconfig, [
      '--name',
      NODE,
      '--runtime',
      'sim',
      '--lease-seconds',
      '1',
    ])
    await waitFor(
      async () => {
        const node = await json(['get', 'node', NODE])
        return node.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True')
      },
      { what: `node ${NODE} Ready`, timeoutMs: 45_000, intervalMs: 250 },
    )
  }, 90_000)
  afterAll(async () => {
    await agent?.stop()
    await server?.dispose()
  })

  it('describes a running pod with its node, containers, conditions and events', async () => {
    await apply(podManifest('web', { labels: { app: 'web' }, image: 'nginx:1.27' }))
    await waitFor(async () => (await json(['get', 'pod', 'web'])).status?.phase === 'Running', {
      what: 'pod web Running',
      timeoutMs: 45_000,
      intervalMs: 250,
    })
    const out = await waitFor(
      async () => {
        const text = await ok(['describe', 'pod', 'web'])
        return /Scheduled/.test(text) ? text : undefined
      },
      { what: 'the Scheduled event in describe pod', timeoutMs: 30_000, intervalMs: 500 },
    )
    expect(field(out, 'Name')).toBe('web')
    expect(field(out, 'Namespace')).toBe('default')
    expect(field(out, 'Node')).toMatch(new RegExp(`^${NODE}/`))
    expect(field(out, 'Labels')).toBe('app=web')
    expect(field(out, 'Status')).toBe('Running')
    expect(out).toMatch(/^Containers:\n\s+main:\n\s+Container ID:/m)
    expect(out).toMatch(/^Conditions:\n\s+Type\s+Status/m)
    expect(out).toMatch(/^Events:\n\s+Type\s+Reason\s+Age\s+From\s+Message/m)
    expect(out).toMatch(
      /Normal\s+Scheduled\s+\S+\s+default-scheduler\s+Successfully assigned default\/web to describe-node/,
    )
  })

  it('describes a deployment with its strategy, replica sets and events', async () => {
    await apply(deployment('api', { replicas: 1, extraLabels: { tier: 'backend' } }))
    const out = await waitFor(
      async () => {
        const text = await ok(['describe', 'deployment', 'api'])
        return /NewReplicaSet:\s+api-\w+ \(1\/1 replicas created\)/.test(text) &&
          /ScalingReplicaSet/.test(text)
          ? text
          : undefined
      },
      { what: 'the deployment to roll out', timeoutMs: 45_000, intervalMs: 500 },
    )
    expect(field(out, 'Name')).toBe('api')
    expect(field(out, 'Namespace')).toBe('default')
    expect(out).toMatch(/^Labels:\s+app=api\n\s+tier=backend$/m)
    expect(field(out, 'Selector')).toBe('app=api')
    expect(field(out, 'StrategyType')).toBe('RollingUpdate')
    expect(out).toMatch(/^Pod Template:\n\s+Labels:\s+app=api/m)
    expect(out).toMatch(
      /Normal\s+ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set api-\w+ from 0 to 1/,
    )
  })

  it('describes a node with its conditions, capacity and non-terminated pods', async () => {
    const out = await ok(['describe', 'node', NODE])
    expect(field(out, 'Name')).toBe(NODE)
    expect(out).toMatch(/^Conditions:\n\s+Type\s+Status\s+LastHeartbeatTime/m)
    expect(out).toMatch(/^\s+Ready\s+True\s/m)
    expect(out).toMatch(/^Capacity:\n/m)
    expect(out).toMatch(/^Non-terminated Pods:\s+\(\d+ in total\)/m)
    expect(out).toMatch(/^\s+default\s+web\s/m)
    expect(out).toMatch(/^Lease:\n\s+HolderIdentity:\s+describe-node/m)
    expect(out).toMatch(/^Events:/m)
  })

  it('describes a service with its selector, IP and endpoints', async () => {
    await ok(['create', 'service', 'clusterip', 'web', '--tcp=80:8080'])
    const out = await waitFor(
      async () => {
        const text = await ok(['describe', 'service', 'web'])
        return /^Endpoints:\s+\S+:8080/m.test(text) ? text : undefined
      },
      { what: 'the service endpoints', timeoutMs: 30_000, intervalMs: 500 },
    )
    expect(field(out, 'Name')).toBe('web')
    expect(field(out, 'Namespace')).toBe('default')
    expect(field(out, 'Labels')).toBe('app=web')
    expect(field(out, 'Selector')).toBe('app=web')
    expect(field(out, 'Type')).toBe('ClusterIP')
    expect(field(out, 'IP')).toMatch(/^10\.\d+\.\d+\.\d+$/)
    expect(out).toMatch(/^Port:\s+80-8080\s+80\/TCP$/m)
    expect(out).toMatch(/^TargetPort:\s+8080\/TCP$/m)
    expect(out).toMatch(/^Events:/m)
  })

  it('replace --force deletes the object and creates it again with a new uid', async () => {
    await apply({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings' },
      data: { a: '1' },
    })
    const before = await json(['get', 'configmap', 'settings'])
    const next = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings' },
      data: { a: '2' },
    }
    const out = await ok(['replace', '--force', '-f', '-'], stream(next))
    expect(out.trim().split('\n')).toEqual([
      'configmap "settings" deleted',
      'configmap/settings replaced',
    ])
    const after = await json(['get', 'configmap', 'settings'])
    expect(after.metadata.uid).not.toBe(before.metadata.uid)
    expect(after.data).toEqual({ a: '2' })
  })

  it('replace --force recreates a deployment, which rolls out again', async () => {
    const before = await json(['get', 'deployment', 'api'])
    const manifest = deployment('api', { replicas: 1, extraLabels: { tier: 'frontend' } })
    const out = await ok(['replace', '--force', '-f', '-'], stream(manifest))
    expect(out.trim().split('\n')).toEqual([
      'deployment.apps "api" deleted',
      'deployment.apps/api replaced',
    ])
    const after = await json(['get', 'deployment', 'api'])
    expect(after.metadata.uid).not.toBe(before.metadata.uid)
    expect(after.metadata.labels).toEqual({ app: 'api', tier: 'frontend' })
    await waitFor(
      async () => (await json(['get', 'deployment', 'api'])).status?.readyReplicas === 1,
      { what: 'the recreated deployment ready', timeoutMs: 45_000, intervalMs: 500 },
    )
  })
})
