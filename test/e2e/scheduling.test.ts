import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { joinNodeToken, startAgent, type AgentProcess } from './helpers/node-agent'
import { podManifest, stream } from './helpers/manifests'
import { waitFor } from './helpers/wait'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'

// Nodes are marked Unknown 4 s after their last heartbeat here, so a stopped agent shows quickly.
const gracePeriodSeconds = 4

let server: TestServer
const agents: AgentProcess[] = []
const run = (args: string[], stdin?: string) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })

/** A kubeconfig like the admin one, holding the node token of `name`. */
async function nodeKubeconfig(name: string): Promise<string> {
  const config = parseYaml(await readFile(server.kubeconfig, 'utf8'))
  for (const u of config.users) u.user = { token: await joinNodeToken(server, name) }
  const path = join(server.stateDir, `kubeconfig-${name}`)
  await writeFile(path, stringifyYaml(config))
  return path
}

async function podOf(name: string): Promise<any> {
  return kubectlJson(['get', 'pod', name, '-o', 'json'], { kubeconfig: server.kubeconfig })
}

beforeAll(async () => {
  server = await startServer({
    env: { EDGEPLANE_NODE_MONITOR_GRACE_PERIOD: String(gracePeriodSeconds) },
  })
  agents.push(
    startAgent(server.kubeconfig, [
      '--name',
      'east',
      '--runtime',
      'sim',
      '--labels',
      'zone=east',
      '--lease-seconds',
      '1',
    ]),
  )
  agents.push(
    startAgent(server.kubeconfig, [
      '--name',
      'west',
      '--runtime',
      'sim',
      '--labels',
      'zone=west',
      '--cpu',
      '2',
      '--lease-seconds',
      '1',
    ]),
  )
  await waitFor(
    async () => {
      const nodes = await kubectlJson(['get', 'nodes', '-o', 'json'], {
        kubeconfig: server.kubeconfig,
      })
      return (
        nodes.items.filter((n: any) =>
          n.status.conditions.some((c: any) => c.type === 'Ready' && c.status === 'True'),
        ).length === 2
      )
    },
    { what: 'two Ready nodes', timeoutMs: 30_000 },
  )
})

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()))
  await server?.dispose()
})

describe('scheduler', () => {
  it('binds a pod with a nodeSelector to the matching node, where it runs', async () => {
    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream(podManifest('in-west', { spec: { nodeSelector: { zone: 'west' } } })),
        )
      ).code,
    ).toBe(0)
    const pod = await waitFor(
      async () => {
        const p = await podOf('in-west')
        return p.status.phase === 'Running' && p
      },
      { what: 'pod in-west Running', timeoutMs: 40_000 },
    )
    expect(pod.spec.nodeName).toBe('west')
    const events = await run([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=in-west,reason=Scheduled',
      '-o',
      'jsonpath={.items[*].message}',
    ])
    expect(events.stdout).toContain('Successfully assigned default/in-west to west')
  })

  it('spreads replicas of one owner across nodes', async () => {
    // Any existing object can own pods; the garbage collector would remove pods whose owner is gone.
    expect(
      (
        await run(
          ['apply', '-f', '-'],
          stream({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'spread' } }),
        )
      ).code,
    ).toBe(0)
    const uid = (
      await kubectlJson(['get', 'cm', 'spread', '-o', 'json'], { kubeconfig: server.kubeconfig })
    ).metadata.uid
    const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'spread', uid, controller: true }
    const pods = [0, 1, 2, 3].map((i) => ({
      ...podManifest(`spread-${i}`),
      metadata: { name: `spread-${i}`, ownerReferences: [owner] },
    }))
    expect((await run(['apply', '-f', '-'], stream(...pods))).code).toBe(0)
    const nodes = await waitFor(
      async () => {
        const list = await kubectlJson(['get', 'pods', '-o', 'json'], {
          kubeconfig: server.kubeconfig,
        })
        const placed = list.items
          .filter((p: any) => p.metadata.name.startsWith('spread-') && p.spec.nodeName)
          .map((p: any) => p.spec.nodeName)
        return placed.length === 4 && placed
      },
      { what: 'four spread pods bound', timeoutMs: 40_000 },
    )
    expect(nodes.filter((n: string) => n === 'east').length).toBe(2)
  })

  it('leaves an unfittable pod Pending with PodScheduled=False and a FailedScheduling event', async () => {
    const big = podManifest('too-big', { requests: { cpu: '64' } })
    expect((await run(['apply', '-f', '-'], stream(big))).code).toBe(0)
    const pod = await waitFor(
      async () => {
        const p = await podOf('too-big')
        return (
          p.status.conditions?.some(
            (c: any) => c.type === 'PodScheduled' && c.status === 'False',
          ) && p
        )
      },
      { what: 'PodScheduled=False on too-big', timeoutMs: 40_000 },
    )
    expect(pod.status.phase).toBe('Pending')
    const condition = pod.status.conditions.find((c: any) => c.type === 'PodScheduled')
    expect(condition.reason).toBe('Unschedulable')
    expect(condition.message).toMatch(/^0\/2 nodes are available: 2 Insufficient cpu\./)
    const events = await run([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=too-big',
      '-o',
      'jsonpath={.items[*].reason}',
    ])
    expect(events.stdout).toContain('FailedScheduling')
  })

  it('avoids cordoned and tainted nodes', async () => {
    expect((await run(['cordon', 'east'])).code).toBe(0)
    expect((await run(['taint', 'nodes', 'west', 'dedicated=gpu:NoSchedule'])).code).toBe(0)
    expect((await run(['apply', '-f', '-'], stream(podManifest('nowhere')))).code).toBe(0)
    await waitFor(
      async () =>
        (await podOf('nowhere')).status.conditions?.some((c: any) => c.reason === 'Unschedulable'),
      { what: 'nowhere Unschedulable', timeoutMs: 40_000 },
    )
    const tolerant = podManifest('tolerant', {
      spec: {
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
      },
    })
    expect((await run(['apply', '-f', '-'], stream(tolerant))).code).toBe(0)
    const placed = await waitFor(async () => (await podOf('tolerant')).spec.nodeName, {
      what: 'tolerant bound',
      timeoutMs: 40_000,
    })
    expect(placed).toBe('west')
    expect((await podOf('nowhere')).spec.nodeName).toBeUndefined()
    // Uncordoning is a node change: the pending pod is retried and lands on east.
    expect((await run(['uncordon', 'east'])).code).toBe(0)
    const later = await waitFor(async () => (await podOf('nowhere')).spec.nodeName, {
      what: 'nowhere bound after uncordon',
      timeoutMs: 40_000,
    })
    expect(later).toBe('east')
    await run(['taint', 'nodes', 'west', 'dedicated-'])
  })
})

describe('node credentials', () => {
  it('lets a node write the status of its own pods but not of pods bound elsewhere', async () => {
    const west = await nodeKubeconfig('west')
    const asWest = (args: string[]) => kubectl(args, { kubeconfig: west })
    const own = await asWest([
      'patch',
      'pod',
      'in-west',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"message":"seen by west"}}',
    ])
    expect(own.code).toBe(0)
    const eastPod = (
      await kubectlJson(['get', 'pods', '-o', 'json'], { kubeconfig: server.kubeconfig })
    ).items.find((p: any) => p.spec.nodeName === 'east')
    const other = await asWest([
      'patch',
      'pod',
      eastPod.metadata.name,
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"message":"not mine"}}',
    ])
    expect(other.code).not.toBe(0)
    expect(other.stderr).toContain('Error from server (Forbidden)')
    expect(
      (await asWest(['delete', 'pod', eastPod.metadata.name, '--wait=false'])).stderr,
    ).toContain('Forbidden')
    expect((await asWest(['delete', 'node', 'east', '--wait=false'])).stderr).toContain('Forbidden')
  })
})

describe('node lifecycle', () => {
  it('marks a node whose agent stopped Unknown and unreachable-tainted within the grace period, and evicts its pods', async () => {
    const short = podManifest('short-toleration', {
      spec: {
        nodeSelector: { zone: 'east' },
        tolerations: [
          {
            key: 'node.kubernetes.io/unreachable',
            operator: 'Exists',
            effect: 'NoExecute',
            tolerationSeconds: 2,
          },
        ],
      },
    })
    expect((await run(['apply', '-f', '-'], stream(short))).code).toBe(0)
    await waitFor(async () => (await podOf('short-toleration')).status.phase === 'Running', {
      what: 'short-toleration Running',
      timeoutMs: 40_000,
    })
    const stoppedAt = Date.now()
    await agents[0]!.stop()
    const node = await waitFor(
      async () => {
        const n = await kubectlJson(['get', 'node', 'east', '-o', 'json'], {
          kubeconfig: server.kubeconfig,
        })
        const ready = n.status.conditions.find((c: any) => c.type === 'Ready')
        return (
          ready.status === 'Unknown' &&
          (n.spec.taints ?? []).some(
            (t: any) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute',
          ) &&
          n
        )
      },
      { what: 'east Unknown and tainted', timeoutMs: 30_000, intervalMs: 250 },
    )
    expect(Date.now() - stoppedAt).toBeLessThan((gracePeriodSeconds + 10) * 1000)
    expect(node.spec.taints.map((t: any) => t.effect).sort()).toEqual(['NoExecute', 'NoSchedule'])
    const table = await run(['get', 'node', 'east'])
    expect(table.stdout).toMatch(/east\s+NotReady/)
    // Evicted as upstream: deleted gracefully, so it is Terminating until its node confirms or goes.
    const evicted = await waitFor(
      async () => (await podOf('short-toleration')).metadata.deletionTimestamp,
      { what: 'short-toleration evicted', timeoutMs: 40_000 },
    )
    expect(evicted).toBeTruthy()
    const events = await run([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=short-toleration',
      '-o',
      'jsonpath={.items[*].reason}',
    ])
    expect(events.stdout).toContain('TaintManagerEviction')
  })
})
