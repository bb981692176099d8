import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { sleep, waitFor } from './helpers/wait'

/** The node monitor grace period here; the agent renews its lease every second. */
const GRACE_SECONDS = 4
const NODE = 'beat-a'

let server: TestServer
let agent: AgentProcess
const run = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })
const readyOf = (n: any) => n.status?.conditions?.find((c: any) => c.type === 'Ready')?.status
const renewTime = async () =>
  (await json(['get', 'lease', NODE, '-n', 'kube-node-lease'])).spec.renewTime as string

/** What the leases store was called for, by entry point, from `GET /metrics` (strict-limits mode). */
async function leasesStoreCalls(): Promise<Record<string, number>> {
  const raw = await run(['get', '--raw', '/metrics'])
  expect(raw.code).toBe(0)
  const calls: Record<string, number> = {}
  const series =
    /^edgeplane_object_requests_total\{class="KindStore",object="coordination\.k8s\.io\/leases",entry="([^"]+)"\} (\d+)/gm
  for (const [, entry, n] of raw.stdout.matchAll(series)) calls[entry!] = Number(n)
  return calls
}

/** A policy that refuses every update of the node's Lease, and its binding. */
const freeze = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: { name: freeze-lease }
spec:
  matchConstraints:
    resourceRules:
    - { apiGroups: [coordination.k8s.io], apiVersions: [v1], operations: [UPDATE], resources: [leases] }
  validations:
  - expression: "object.metadata.name != '${NODE}'"
    message: lease updates are frozen
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: { name: freeze-lease }
spec: { policyName: freeze-lease, validationActions: [Deny] }
`

beforeAll(async () => {
  server = await startServer({
    env: {
      EDGEPLANE_NODE_MONITOR_GRACE_PERIOD: String(GRACE_SECONDS),
      EDGEPLANE_STRICT_LIMITS: 'true',
    },
  })
  agent = startAgent(server.kubeconfig, [
    '--name',
    NODE,
    '--runtime',
    'sim',
    '--lease-seconds',
    '1',
  ])
  await waitFor(async () => readyOf(await json(['get', 'node', NODE])) === 'True', {
    what: `${NODE} Ready`,
    timeoutMs: 30_000,
  })
})

afterAll(async () => {
  await agent?.stop()
  await server?.dispose()
})

describe('node heartbeats over the heartbeat stream', () => {
  it('renew the Lease as messages to its store, not as PATCH requests', async () => {
    // The stream opens at a renewal that finds it closed; the ones before it are PATCHes.
    await waitFor(async () => ((await leasesStoreCalls())['ws:message'] ?? 0) > 0, {
      what: 'a renewal over the stream',
      timeoutMs: 15_000,
    })
    const before = await leasesStoreCalls()
    const renewedBefore = await renewTime()
    await sleep(4000)
    const after = await leasesStoreCalls()
    expect(await renewTime()).not.toBe(renewedBefore)
    expect(after['ws:message']! - before['ws:message']!).toBeGreaterThanOrEqual(3)
    expect(after['rpc:patch'] ?? 0).toBe(before['rpc:patch'] ?? 0)
    // kubectl still sees a Lease whose renewTime moves, as any watcher does.
    const watched = await run([
      'get',
      'lease',
      NODE,
      '-n',
      'kube-node-lease',
      '--watch-only',
      '--request-timeout=3s',
      '-o',
      'jsonpath={.spec.renewTime}{"\\n"}',
    ])
    expect(watched.stdout.trim().split('\n').length).toBeGreaterThanOrEqual(2)
  })

  it('pass admission again once a policy sees Lease updates: one that refuses them stops the heartbeat', async () => {
    expect((await run(['apply', '-f', '-'], freeze)).code).toBe(0)
    // A renewal in flight may still land; after that, none does, and the node goes Unknown.
    await sleep(1500)
    const frozen = await renewTime()
    await waitFor(async () => readyOf(await json(['get', 'node', NODE])) === 'Unknown', {
      what: `${NODE} Unknown`,
      timeoutMs: (GRACE_SECONDS + 10) * 1000,
      intervalMs: 250,
    })
    expect(await renewTime()).toBe(frozen)
    expect((await run(['delete', 'validatingadmissionpolicybinding', 'freeze-lease'])).code).toBe(0)
    await waitFor(async () => readyOf(await json(['get', 'node', NODE])) === 'True', {
      what: `${NODE} Ready again`,
      timeoutMs: 30_000,
    })
    expect(await renewTime()).not.toBe(frozen)
  })
})
