import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { startServer, type TestServer } from './helpers/server'
import { parseTable } from './helpers/table'
import { sleep, waitFor } from './helpers/wait'
import { startAgent as spawnAgent, type AgentProcess } from './helpers/node-agent'
import { podManifest } from './helpers/manifests'

function startAgent(
  kubeconfig: string,
  args: string[],
  env: Record<string, string> = {},
): AgentProcess {
  const agent = spawnAgent(kubeconfig, args, env)
  agents.push(agent)
  return agent
}

const agents: AgentProcess[] = []

/** Processes whose command line contains `needle`, read from /proc. */
function processesMatching(needle: string): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').includes(needle))
        pids.push(Number(entry))
    } catch {
      // the process ended meanwhile
    }
  }
  return pids
}

const suffix = randomBytes(3).toString('hex')
const PROC_NODE = `e2e-proc-${suffix}`
const SIM_PREFIX = `e2e-sim-${suffix}`
const SIM_NODES = [0, 1, 2].map((i) => `${SIM_PREFIX}-${i}`)

/** A pod bound to `node`, as JSON for `kubectl apply -f -`: one container `main` (busybox unless told). */
function podJson(
  name: string,
  node: string,
  container: Record<string, unknown>,
  spec: Record<string, unknown> = {},
): string {
  return JSON.stringify(
    podManifest(name, {
      nodeName: node,
      containers: [{ name: 'main', image: 'busybox', ...container }],
      spec,
    }),
  )
}

describe('node agent', () => {
  let server: TestServer
  let proc: AgentProcess
  let sim: AgentProcess
  let scratch: string
  const kc = () => ({ kubeconfig: server.kubeconfig })
  const diagnostics = () =>
    `\n--- process agent ---\n${proc?.output()}\n--- sim agent ---\n${sim?.output()}`

  async function podRow(name: string): Promise<Record<string, string> | undefined> {
    const res = await kubectl(['get', 'pod', name], kc())
    if (res.code !== 0) return undefined
    return parseTable(res.stdout).rows[0]
  }

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'edgeplane-agent-e2e-'))
    server = await startServer()
    proc = startAgent(
      server.kubeconfig,
      [
        '--name',
        PROC_NODE,
        '--runtime',
        'process',
        '--lease-seconds',
        '1',
        '--labels',
        'e2e=process',
      ],
      { EDGEPLANE_AGENT_BACKOFF_BASE_MS: '200' },
    )
    sim = startAgent(server.kubeconfig, [
      '--name',
      SIM_PREFIX,
      '--runtime',
      'sim',
      '--nodes',
      '3',
      '--lease-seconds',
      '1',
      '--sim-start-delay-ms',
      '100',
    ])
  })

  afterAll(async () => {
    await Promise.all(agents.map((a) => a.stop()))
    await server?.dispose()
    if (scratch) await rm(scratch, { recursive: true, force: true })
  })

  it('registers Ready nodes and renews their leases', async () => {
    const rows = await waitFor(
      async () => {
        const res = await kubectl(['get', 'nodes'], kc())
        const table = parseTable(res.stdout)
        const ready = table.rows.filter(
          (r) => [PROC_NODE, ...SIM_NODES].includes(r.NAME!) && r.STATUS === 'Ready',
        )
        return ready.length === 4 ? table.rows : undefined
      },
      {
        what: `4 Ready nodes in kubectl get nodes${diagnostics()}`,
        timeoutMs: 20_000,
        intervalMs: 250,
      },
    )
    expect(rows.find((r) => r.NAME === PROC_NODE)).toMatchObject({
      STATUS: 'Ready',
      VERSION: 'v1.32.0-edgeplane',
    })

    const node = await kubectlJson(['get', 'node', PROC_NODE], kc())
    expect(node.metadata.labels).toMatchObject({
      'kubernetes.io/hostname': PROC_NODE,
      'kubernetes.io/os': 'linux',
      e2e: 'process',
    })
    expect(node.status.nodeInfo.containerRuntimeVersion).toMatch(/^process:\/\//)
    expect(node.status.addresses.map((a: { type: string }) => a.type)).toEqual([
      'InternalIP',
      'Hostname',
    ])
    expect(node.status.conditions.find((c: { type: string }) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'KubeletReady',
    })
    const simNode = await kubectlJson(['get', 'node', SIM_NODES[1]!], kc())
    expect(simNode.status.capacity).toEqual({ cpu: '4', memory: '16Gi', pods: '110' })

    const renewTime = async () =>
      (await kubectlJson(['get', 'lease', '-n', 'kube-node-lease', PROC_NODE], kc())).spec
        .renewTime as string
    const first = await renewTime()
    expect(first).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    await waitFor(async () => (await renewTime()) > first, {
      what: `the lease of ${PROC_NODE} to be renewed after ${first}`,
      timeoutMs: 5_000,
      intervalMs: 250,
    })
  })

  it('runs a process pod with env from a ConfigMap to Running and Ready 1/1', async () => {
    const cm = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'greeting' },
      data: { who: 'world' },
    })
    const pod = podJson('hello', PROC_NODE, {
      command: ['sh', '-c', 'echo hello $MY_VAR; sleep 30'],
      env: [{ name: 'MY_VAR', valueFrom: { configMapKeyRef: { name: 'greeting', key: 'who' } } }],
      // Ready only if the variable really arrived in the container's environment.
      readinessProbe: {
        exec: { command: ['sh', '-c', 'test "$MY_VAR" = world'] },
        periodSeconds: 1,
      },
    })
    const applied = await kubectl(['apply', '-f', '-'], { ...kc(), stdin: `${cm}\n${pod}` })
    expect(applied.stderr).toBe('')
    const row = await waitFor(
      async () => {
        const r = await podRow('hello')
        return r?.READY === '1/1' && r.STATUS === 'Running' ? r : undefined
      },
      { what: `pod hello to be Running 1/1${diagnostics()}`, timeoutMs: 15_000, intervalMs: 250 },
    )
    expect(row.RESTARTS).toBe('0')

    const status = (await kubectlJson(['get', 'pod', 'hello'], kc())).status
    expect(
      status.conditions.map((c: { type: string; status: string }) => `${c.type}=${c.status}`),
    ).toEqual([
      'PodReadyToStartContainers=True',
      'Initialized=True',
      'Ready=True',
      'ContainersReady=True',
      'PodScheduled=True',
    ])
    expect(status.containerStatuses[0]).toMatchObject({
      name: 'main',
      ready: true,
      started: true,
      restartCount: 0,
      image: 'busybox',
    })
    expect(status.containerStatuses[0].containerID).toMatch(/^process:\/\//)
    expect(status.hostIP).toBe(status.podIP)
    expect(status.qosClass).toBe('BestEffort')
    expect(status.startTime).toBeTruthy()
  })

  it('ends a Never pod that exits 3 as Failed, and one that exits 0 as Completed', async () => {
    const failing = podJson(
      'exit-three',
      PROC_NODE,
      { command: ['sh', '-c', 'exit 3'] },
      { restartPolicy: 'Never' },
    )
    const passing = podJson(
      'exit-zero',
      PROC_NODE,
      { command: ['sh', '-c', 'exit 0'] },
      { restartPolicy: 'Never' },
    )
    await kubectl(['apply', '-f', '-'], { ...kc(), stdin: `${failing}\n${passing}` })

    const failed = await waitFor(
      async () => {
        const pod = await kubectlJson(['get', 'pod', 'exit-three'], kc())
        return pod.status.phase === 'Failed' ? pod : undefined
      },
      { what: `pod exit-three to fail${diagnostics()}`, timeoutMs: 10_000, intervalMs: 250 },
    )
    expect(failed.status.containerStatuses[0].state.terminated).toMatchObject({
      exitCode: 3,
      reason: 'Error',
    })
    expect((await podRow('exit-three'))?.STATUS).toBe('Error')

    const row = await waitFor(
      async () => {
        const r = await podRow('exit-zero')
        return r?.STATUS === 'Completed' ? r : undefined
      },
      { what: `pod exit-zero to be Completed${diagnostics()}`, timeoutMs: 10_000, intervalMs: 250 },
    )
    expect(row.READY).toBe('0/1')
    expect((await kubectlJson(['get', 'pod', 'exit-zero'], kc())).status.phase).toBe('Succeeded')
    // A finished pod is not started again.
    await sleep(500)
    expect(
      (await kubectlJson(['get', 'pod', 'exit-zero'], kc())).status.containerStatuses[0]
        .restartCount,
    ).toBe(0)
  })

  it('restarts a crashing container with CrashLoopBackOff', async () => {
    await kubectl(['apply', '-f', '-'], {
      ...kc(),
      stdin: podJson('crasher', PROC_NODE, { command: ['sh', '-c', 'echo oops; exit 1'] }),
    })
    const row = await waitFor(
      async () => {
        const r = await podRow('crasher')
        return r?.STATUS === 'CrashLoopBackOff' && Number(r.RESTARTS!.split(' ')[0]) >= 2
          ? r
          : undefined
      },
      { what: `pod crasher to crash-loop${diagnostics()}`, timeoutMs: 10_000, intervalMs: 250 },
    )
    expect(row.READY).toBe('0/1')
    const status = (await kubectlJson(['get', 'pod', 'crasher'], kc())).status
    expect(status.phase).toBe('Running')
    expect(status.containerStatuses[0].lastState.terminated).toMatchObject({
      exitCode: 1,
      reason: 'Error',
    })
    await kubectl(['delete', 'pod', 'crasher', '--wait=false'], kc())
  })

  it('terminates a pod gracefully on kubectl delete, and the pod disappears', async () => {
    const marker = join(scratch, 'terminated')
    const pod = podJson('graceful', PROC_NODE, {
      command: [
        'sh',
        '-c',
        `trap 'echo got SIGTERM > ${marker}; exit 0' TERM; while true; do sleep 0.2; done`,
      ],
    })
    await kubectl(['apply', '-f', '-'], { ...kc(), stdin: pod })
    await waitFor(async () => (await podRow('graceful'))?.STATUS === 'Running', {
      what: `pod graceful to run${diagnostics()}`,
      timeoutMs: 10_000,
      intervalMs: 250,
    })

    const started = Date.now()
    const deleted = await kubectl(['delete', 'pod', 'graceful', '--timeout=20s'], {
      ...kc(),
      timeoutMs: 25_000,
    })
    expect(deleted.stdout).toContain('pod "graceful" deleted')
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(await readFile(marker, 'utf8')).toBe('got SIGTERM\n')
    const gone = await kubectl(['get', 'pod', 'graceful'], kc())
    expect(gone.stderr).toContain('pods "graceful" not found')
  })

  it('runs pods bound to each simulated node', async () => {
    const manifests = SIM_NODES.map((node, i) =>
      podJson(`sim-pod-${i}`, node, { image: 'nginx:1.27' }),
    )
    await kubectl(['apply', '-f', '-'], { ...kc(), stdin: manifests.join('\n') })
    const pods = await waitFor(
      async () => {
        const list = await kubectlJson(
          ['get', 'pods', '-o', 'json', '--field-selector', 'status.phase=Running'],
          kc(),
        )
        const sims = (
          list.items as {
            metadata: { name: string }
            spec: { nodeName: string }
            status: { podIP: string; containerStatuses: { ready: boolean }[] }
          }[]
        ).filter(
          (p) => p.metadata.name.startsWith('sim-pod-') && p.status.containerStatuses?.[0]?.ready,
        )
        return sims.length === 3 ? sims : undefined
      },
      { what: `3 sim pods Running and ready${diagnostics()}`, timeoutMs: 10_000, intervalMs: 250 },
    )
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(SIM_NODES)
    const ips = pods.map((p) => p.status.podIP)
    for (const ip of ips) expect(ip).toMatch(/^10\.244\.\d+\.\d+$/)
    expect(new Set(ips).size).toBe(3)
    const table = parseTable((await kubectl(['get', 'pods', '-o', 'wide'], kc())).stdout)
    for (const i of [0, 1, 2])
      expect(table.rows.find((r) => r.NAME === `sim-pod-${i}`)).toMatchObject({
        READY: '1/1',
        STATUS: 'Running',
        NODE: SIM_NODES[i],
      })
  })

  it('stops its processes when the agent is stopped', async () => {
    const token = `37.${suffix.replace(/[a-f]/g, '1')}`
    await kubectl(['apply', '-f', '-'], {
      ...kc(),
      stdin: podJson('sleeper', PROC_NODE, { command: ['sleep', token] }),
    })
    await waitFor(() => processesMatching(`sleep ${token}`).length > 0, {
      what: `the sleeper process to start${diagnostics()}`,
      timeoutMs: 10_000,
    })
    await proc.stop()
    await waitFor(() => processesMatching(`sleep ${token}`).length === 0, {
      what: 'the sleeper process to be stopped with the agent',
      timeoutMs: 5_000,
    })
    expect(proc.output()).toContain('SIGTERM: stopping')
    expect(existsSync(join(scratch, 'terminated'))).toBe(true)
  })
})
