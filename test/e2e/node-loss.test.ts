import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { deployment, stream } from './helpers/manifests'
import { waitFor } from './helpers/wait'
import { cidrContains, parseCidr } from '../../src/apimachinery/cidr'

/** The control plane's node monitor grace period here: the agents must renew every 2 s without being told. */
const GRACE_SECONDS = 8

let server: TestServer
const agents: AgentProcess[] = []
const run = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

const simAgent = (name: string, extra: string[] = []) => {
  const a = startAgent(server.kubeconfig, [
    '--name',
    name,
    '--runtime',
    'sim',
    '--sim-start-delay-ms',
    '100',
    ...extra,
  ])
  agents.push(a)
  return a
}

const conditionOf = (o: any, type: string) =>
  (o.status?.conditions ?? []).find((c: any) => c.type === type)

async function webPods(): Promise<any[]> {
  return (await json(['get', 'pods', '-l', 'app=web'])).items
}

beforeAll(async () => {
  server = await startServer({
    env: { EDGEPLANE_NODE_MONITOR_GRACE_PERIOD: String(GRACE_SECONDS) },
  })
  simAgent('w1')
  simAgent('w2')
  await waitFor(
    async () => {
      const nodes = (await json(['get', 'nodes'])).items
      return (
        nodes.length === 2 && nodes.every((n: any) => conditionOf(n, 'Ready')?.status === 'True')
      )
    },
    { what: 'nodes w1 and w2 Ready', timeoutMs: 30_000 },
  )
})

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()))
  await server?.dispose()
})

describe('node heartbeats, pod CIDRs and the loss of a node', () => {
  it('publishes its grace period, and an agent renewing too slowly for it is refused', async () => {
    const cm = await json(['get', 'configmap', '-n', 'kube-public', 'edgeplane-node-settings'])
    expect(cm.data).toEqual({ nodeMonitorGracePeriodSeconds: String(GRACE_SECONDS) })

    const slow = simAgent('w3', ['--lease-seconds', '3'])
    const code = await new Promise<number | null>((resolve) => {
      if (slow.child.exitCode !== null) resolve(slow.child.exitCode)
      else slow.child.once('exit', (c) => resolve(c))
    })
    expect(code).toBe(2)
    expect(slow.output()).toContain(
      '--lease-seconds 3 is too slow for the control plane: it marks a node Unknown after 8s without a heartbeat',
    )
    // It never reported itself: the Node its join created has no Ready condition, so nothing is scheduled there.
    const w3 = await json(['get', 'node', 'w3'])
    expect(
      (w3.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True'),
    ).toBe(false)
    await run(['delete', 'node', 'w3'])
  })

  it('gives each node a pod CIDR of its own, shown by kubectl describe node', async () => {
    const nodes = await waitFor(
      async () => {
        const items = (await json(['get', 'nodes'])).items.filter(
          (n: any) => n.metadata.name === 'w1' || n.metadata.name === 'w2',
        )
        return items.length === 2 && items.every((n: any) => n.spec.podCIDR) && items
      },
      { what: 'pod CIDRs on both nodes', timeoutMs: 20_000 },
    )
    const cidrs = nodes.map((n: any) => n.spec.podCIDR)
    expect(new Set(cidrs).size).toBe(2)
    for (const n of nodes) {
      expect(n.spec.podCIDR).toMatch(/^10\.244\.\d+\.0\/24$/)
      expect(n.spec.podCIDRs).toEqual([n.spec.podCIDR])
    }
    const described = await run(['describe', 'node', 'w1'])
    const w1 = nodes.find((n: any) => n.metadata.name === 'w1')
    expect(described.stdout).toMatch(
      new RegExp(`^PodCIDR:\\s+${w1.spec.podCIDR.replace(/\./g, '\\.')}$`, 'm'),
    )
    expect(described.stdout).toMatch(
      new RegExp(`^PodCIDRs:\\s+${w1.spec.podCIDR.replace(/\./g, '\\.')}$`, 'm'),
    )

    // The assignment is final, for the node itself as for anyone.
    const moved = await run([
      'patch',
      'node',
      'w1',
      '--type=merge',
      '-p',
      '{"spec":{"podCIDR":"10.244.200.0/24","podCIDRs":["10.244.200.0/24"]}}',
    ])
    expect(moved.code).not.toBe(0)
    expect(moved.stderr).toContain(
      'The Node "w1" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
    )
  })

  it("spreads a Deployment over both nodes with pod IPs unique in the cluster, each in its node's pod CIDR", async () => {
    const web = deployment('web', {
      replicas: 6,
      containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 8080 }] }],
    })
    expect((await run(['apply', '-f', '-'], stream(web))).code).toBe(0)
    expect(
      (await run(['expose', 'deployment', 'web', '--port=80', '--target-port=8080'])).code,
    ).toBe(0)
    const pods = await waitFor(
      async () => {
        const items = await webPods()
        return (
          items.length === 6 &&
          items.every((p) => p.status.podIP && conditionOf(p, 'Ready')?.status === 'True') &&
          items
        )
      },
      { what: '6 ready web pods with IPs', timeoutMs: 60_000 },
    )
    const nodeCidr = new Map<string, string>(
      (await json(['get', 'nodes'])).items.map((n: any) => [n.metadata.name, n.spec.podCIDR]),
    )
    const ips = pods.map((p: any) => p.status.podIP)
    expect(new Set(ips).size).toBe(6)
    expect(new Set(pods.map((p: any) => p.spec.nodeName))).toEqual(new Set(['w1', 'w2']))
    for (const p of pods)
      expect(
        cidrContains(parseCidr(nodeCidr.get(p.spec.nodeName)!)!, p.status.podIP),
        `${p.status.podIP} in ${nodeCidr.get(p.spec.nodeName)}`,
      ).toBe(true)
  })

  it('keeps healthy nodes Ready through several grace periods', async () => {
    const before = (await json(['get', 'node', 'w1'])).metadata.creationTimestamp
    // Wait until the nodes have lived through three grace periods (each renewal moves renewTime on).
    await waitFor(
      async () => {
        const lease = await json(['get', 'lease', '-n', 'kube-node-lease', 'w1'])
        return Date.parse(lease.spec.renewTime) - Date.parse(before) > 3 * GRACE_SECONDS * 1000
      },
      {
        what: 'the w1 lease renewed three grace periods after registration',
        timeoutMs: 40_000,
        intervalMs: 1000,
      },
    )
    for (const name of ['w1', 'w2']) {
      const node = await json(['get', 'node', name])
      expect(conditionOf(node, 'Ready').status).toBe('True')
      expect(Date.parse(conditionOf(node, 'Ready').lastTransitionTime)).toBeLessThanOrEqual(
        Date.parse(before) + GRACE_SECONDS * 1000,
      )
    }
    const notReady = (await json(['get', 'events', '--field-selector', 'reason=NodeNotReady']))
      .items
    expect(notReady).toEqual([])
  })

  it('marks the pods of an unreachable node not ready at once, and Endpoints drop them', async () => {
    const w2Pods = (await webPods()).filter((p) => p.spec.nodeName === 'w2')
    expect(w2Pods.length).toBeGreaterThan(0)
    await agents[1]!.stop()
    await waitFor(
      async () => conditionOf(await json(['get', 'node', 'w2']), 'Ready')?.status === 'Unknown',
      { what: 'node w2 Unknown', timeoutMs: 40_000 },
    )
    await waitFor(
      async () =>
        (await webPods())
          .filter((p) => p.spec.nodeName === 'w2')
          .every((p) => conditionOf(p, 'Ready')?.status === 'False'),
      {
        what: 'the pods on w2 Ready=False',
        timeoutMs: 20_000,
      },
    )
    const gone = new Set(w2Pods.map((p) => p.status.podIP))
    await waitFor(
      async () => {
        const ep = await json(['get', 'endpoints', 'web'])
        const ready = (ep.subsets ?? []).flatMap((s: any) =>
          (s.addresses ?? []).map((a: any) => a.ip),
        )
        const notReady = (ep.subsets ?? []).flatMap((s: any) =>
          (s.notReadyAddresses ?? []).map((a: any) => a.ip),
        )
        return (
          ready.every((ip: string) => !gone.has(ip)) &&
          [...gone].every((ip) => notReady.includes(ip))
        )
      },
      { what: "endpoints listing w2's pods as not ready only", timeoutMs: 20_000 },
    )
    const events = (
      await json([
        'get',
        'events',
        '--field-selector',
        `involvedObject.name=${w2Pods[0].metadata.name}`,
      ])
    ).items
    expect(events.map((e: any) => [e.type, e.reason, e.message])).toContainEqual([
      'Warning',
      'NodeNotReady',
      'Node is not ready',
    ])
  })

  it('collects the pods of a deleted node after the 40 s quarantine', {
    timeout: 150_000,
  }, async () => {
    expect((await run(['delete', 'node', 'w2'])).code).toBe(0)
    // The node's deletion wakes pod GC, which waits out the 40 s quarantine.
    await waitFor(async () => (await webPods()).every((p) => p.spec.nodeName !== 'w2'), {
      what: 'no pod left on w2',
      timeoutMs: 120_000,
      intervalMs: 2000,
    })
    const pods = await waitFor(
      async () => {
        const items = await webPods()
        return (
          items.length === 6 &&
          items.every((p) => conditionOf(p, 'Ready')?.status === 'True') &&
          items
        )
      },
      { what: 'the Deployment back to 6 ready pods on w1', timeoutMs: 30_000 },
    )
    expect(new Set(pods.map((p: any) => p.status.podIP)).size).toBe(6)
  })

  it('shows an agent its Node deleted at once, through its watch of it', async () => {
    const w1 = agents[0]!
    expect((await run(['delete', 'node', 'w1', '--wait=false'])).code).toBe(0)
    // It tries to register it again; the deletion revoked its credential, so it is refused.
    await waitFor(() => w1.output().includes('node w1 was deleted from the API'), {
      what: "the agent noticing its Node's deletion",
      timeoutMs: 5_000,
      intervalMs: 200,
    })
    await waitFor(() => /updating node w1 status failed.*Unauthorized/.test(w1.output()), {
      what: 'the agent refused once its credential is revoked',
      timeoutMs: 10_000,
    })
  })
})
