import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { stream } from './helpers/manifests'
import { waitFor } from './helpers/wait'

let server: TestServer
let agent: AgentProcess | undefined
const run = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 8080 }] }] },
    },
  },
}

/** The ready addresses `kubectl get endpoints` reports. */
async function readyAddresses(name: string): Promise<string[]> {
  const ep = await json(['get', 'endpoints', name, '-o', 'json'])
  return (ep.subsets ?? []).flatMap((s: any) => (s.addresses ?? []).map((a: any) => a.ip))
}

beforeAll(async () => {
  server = await startServer()
  agent = startAgent(server.kubeconfig, [
    '--name',
    'sim-1',
    '--runtime',
    'sim',
    '--lease-seconds',
    '1',
  ])
})

afterAll(async () => {
  await agent?.stop()
  await server?.dispose()
})

describe('services', () => {
  it('exposes a deployment: endpoints follow its ready pods', async () => {
    expect((await run(['apply', '-f', '-'], stream(deployment))).code).toBe(0)
    const exposed = await run(['expose', 'deployment', 'web', '--port=80', '--target-port=8080'])
    expect(exposed.stdout).toContain('service/web exposed')
    const svc = await json(['get', 'service', 'web', '-o', 'json'])
    expect(svc.spec.clusterIP).toMatch(/^10\./)
    await waitFor(async () => (await readyAddresses('web')).length === 3, {
      what: '3 ready endpoint addresses',
      timeoutMs: 30_000,
    })
    const ep = await json(['get', 'endpoints', 'web', '-o', 'json'])
    expect(ep.subsets[0].ports).toEqual([{ port: 8080, protocol: 'TCP' }])
    expect(ep.subsets[0].addresses[0].targetRef.kind).toBe('Pod')
    const table = await run(['get', 'endpoints', 'web'])
    expect(table.stdout).toMatch(/:8080/)

    const slices = await run(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web'])
    expect(slices.stdout).toMatch(/^web-\S+\s+IPv4\s+8080\s/m)

    expect((await run(['scale', 'deployment', 'web', '--replicas=1'])).code).toBe(0)
    await waitFor(async () => (await readyAddresses('web')).length === 1, {
      what: '1 ready endpoint address',
      timeoutMs: 30_000,
    })
  })

  it('gives a headless service no cluster IP', async () => {
    const res = await run([
      'create',
      'service',
      'clusterip',
      'web-headless',
      '--clusterip=None',
      '--tcp=80:8080',
    ])
    expect(res.code).toBe(0)
    const svc = await json(['get', 'service', 'web-headless', '-o', 'json'])
    expect(svc.spec.clusterIP).toBe('None')
  })

  it('deletes the endpoints with the service', async () => {
    expect((await run(['delete', 'service', 'web'])).code).toBe(0)
    await waitFor(async () => (await run(['get', 'endpoints', 'web'])).code !== 0, {
      what: 'endpoints web gone',
      timeoutMs: 20_000,
    })
  })
})
