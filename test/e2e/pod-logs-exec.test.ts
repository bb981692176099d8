import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectl, type KubectlResult } from './helpers/kubectl'
import { startKubectl } from './helpers/kubectl-stream'
import { stream, type Manifest } from './helpers/manifests'
import { startNodeAgent, type AgentProcess } from './helpers/node-agent'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// `kubectl logs` and `kubectl exec` reach a pod's container through the tunnel its node agent
// dialled out on: the real launcher, a real agent with the process runtime, the real kubectl.

const NODE = 'e2e-tunnel-node'
let server: TestServer
let agent: AgentProcess

const run = (args: string[], stdin?: string): Promise<KubectlResult> =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin })

function processPod(
  name: string,
  script: string,
  opts: { nodeName?: string; restartPolicy?: string; containers?: string[] } = {},
): Manifest {
  const names = opts.containers ?? ['main']
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      nodeName: opts.nodeName ?? NODE,
      restartPolicy: opts.restartPolicy ?? 'Always',
      containers: names.map((c) => ({
        name: c,
        image: 'busybox:1.36',
        command: ['sh', '-c', script],
      })),
    },
  }
}

async function phase(name: string): Promise<string> {
  const res = await run(['get', 'pod', name, '-o', 'jsonpath={.status.phase}'])
  return res.stdout.trim()
}

beforeAll(async () => {
  server = await startServer()
  agent = startNodeAgent(server.kubeconfig, NODE)
  const applied = await run(
    ['apply', '-f', '-'],
    stream(
      processPod('counter', 'for i in 1 2 3 4 5; do echo line $i; done; exec sleep 3600'),
      processPod('finite', 'echo start; sleep 2; echo middle; sleep 1; echo done', {
        restartPolicy: 'Never',
      }),
      processPod('stranded', 'sleep 3600', { nodeName: 'no-agent-node' }),
    ),
  )
  expect(applied.code, applied.stderr).toBe(0)
  try {
    await waitFor(async () => (await phase('counter')) === 'Running', {
      what: 'pod counter Running',
      timeoutMs: 60_000,
      intervalMs: 250,
    })
    // The tunnel may come up just after the pod runs: wait until the logs answer through it.
    await waitFor(async () => (await run(['logs', 'counter'])).stdout.includes('line 5'), {
      what: 'logs through the tunnel',
      timeoutMs: 30_000,
      intervalMs: 250,
    })
  } catch (err) {
    throw new Error(`${(err as Error).message}\nagent output:\n${agent.output()}`)
  }
})

afterAll(async () => {
  await agent?.stop()
  await server?.dispose()
})

describe('kubectl logs', () => {
  it('prints the container output, and only the last lines with --tail', async () => {
    const all = await run(['logs', 'counter'])
    expect(all.code, all.stderr).toBe(0)
    expect(all.stdout).toBe('line 1\nline 2\nline 3\nline 4\nline 5\n')
    const tail = await run(['logs', 'counter', '--tail=2'])
    expect(tail.code, tail.stderr).toBe(0)
    expect(tail.stdout).toBe('line 4\nline 5\n')
    const limited = await run(['logs', 'pod/counter', '-c', 'main', '--limit-bytes=9'])
    expect(limited.stdout).toBe('line 1\nli')
  })

  it('follows with -f and ends when the container ends', async () => {
    const started = Date.now()
    const follow = startKubectl(['logs', '-f', 'finite'], {
      kubeconfig: server.kubeconfig,
      timeoutMs: 60_000,
    })
    const res = await follow.exited
    expect(res.killed, res.stderr).toBe(false)
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toBe('start\nmiddle\ndone\n')
    expect(Date.now() - started).toBeLessThan(30_000)
    await waitFor(async () => (await phase('finite')) === 'Succeeded', {
      what: 'pod finite Succeeded',
      timeoutMs: 20_000,
    })
  })

  it('streams lines as they are written, and lets go when kubectl leaves', async () => {
    await run(
      ['apply', '-f', '-'],
      stream(processPod('ticker', 'i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.3; done')),
    )
    await waitFor(async () => (await phase('ticker')) === 'Running', {
      what: 'pod ticker Running',
      timeoutMs: 30_000,
    })
    const follow = startKubectl(['logs', '-f', 'ticker'], {
      kubeconfig: server.kubeconfig,
      timeoutMs: 60_000,
    })
    await waitFor(() => follow.stdout().split('\n').length > 4, {
      what: 'ticks while following',
      timeoutMs: 20_000,
    })
    const stopped = await follow.stop()
    // The agent runs with --verbose, so it reports the stream the server cancelled.
    await waitFor(() => /stream \d+ cancelled by the server/.test(agent.output()), {
      what: 'the cancel at the agent',
      timeoutMs: 10_000,
    })
    expect(stopped.stdout).toMatch(/^tick 1\ntick 2\ntick 3\n/)
    // The server still answers other reads of the same container afterwards.
    expect((await run(['logs', 'ticker', '--tail=1'])).stdout).toMatch(/^tick \d+\n$/)
  })

  it('reports a wrong container, a pod without an agent, and a missing pod as the server says', async () => {
    // kubectl checks the container name itself first, in the server's words.
    const wrong = await run(['logs', 'counter', '-c', 'nope'])
    expect(wrong.code).toBe(1)
    expect(wrong.stderr.trim()).toBe('error: container nope is not valid for pod counter')
    const stranded = await run(['logs', 'stranded'])
    expect(stranded.code).toBe(1)
    expect(stranded.stderr.trim()).toBe(
      'Error from server (ServiceUnavailable): error dialing backend: node "no-agent-node" has no connected agent',
    )
    const missing = await run(['logs', 'nope'])
    expect(missing.code).toBe(1)
    expect(missing.stderr.trim()).toBe(
      'error: error from server (NotFound): pods "nope" not found in namespace "default"',
    )
  })
})

describe('kubectl exec', () => {
  it('runs a command in the container and prints its output', async () => {
    const res = await run(['exec', 'counter', '--', 'echo', 'hi'])
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toBe('hi\n')
    expect(res.stderr).toBe('')
  })

  it('exits with the command exit code', async () => {
    const res = await run(['exec', 'counter', '--', 'sh', '-c', 'echo out; echo err >&2; exit 3'])
    expect(res.code).toBe(3)
    expect(res.stdout).toBe('out\n')
    expect(res.stderr).toContain('err\n')
    expect(res.stderr.trim().split('\n').at(-1)).toBe('command terminated with exit code 3')
  })

  it('passes stdin with -i', async () => {
    const res = await run(
      ['exec', '-i', 'counter', '--', 'sh', '-c', 'tr a-z A-Z'],
      'piped through\n',
    )
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toBe('PIPED THROUGH\n')
  })

  it('refuses a pod whose node has no agent', async () => {
    const res = await run(['exec', 'stranded', '--', 'true'])
    expect(res.code).toBe(1)
    expect(res.stderr).toContain(
      'error dialing backend: node "no-agent-node" has no connected agent',
    )
  })
})

describe('kubectl debug', () => {
  it('runs the ephemeral container as a process in the pod directory, once, and reports its status', async () => {
    const debug = await run([
      'debug',
      'counter',
      '--image=busybox:1.36',
      '-c',
      'dbg',
      '--',
      'sh',
      '-c',
      'echo debugging in "$(basename "$PWD")"; echo HOSTNAME=$HOSTNAME',
    ])
    expect(debug.code, debug.stderr).toBe(0)
    const uid = (
      await run(['get', 'pod', 'counter', '-o', 'jsonpath={.metadata.uid}'])
    ).stdout.trim()
    const terminated = await waitFor(
      async () => {
        const res = await run([
          'get',
          'pod',
          'counter',
          '-o',
          'jsonpath={.status.ephemeralContainerStatuses[?(@.name=="dbg")].state.terminated}',
        ])
        return res.stdout.trim()
          ? (JSON.parse(res.stdout) as { exitCode: number; reason: string })
          : undefined
      },
      { what: 'the ephemeral container dbg terminated', timeoutMs: 30_000, intervalMs: 250 },
    )
    expect(terminated).toMatchObject({ exitCode: 0, reason: 'Completed' })
    const logs = await run(['logs', 'counter', '-c', 'dbg'])
    expect(logs.stdout).toBe(`debugging in ${uid}\nHOSTNAME=counter\n`)
    // It is not restarted, whatever the pod's restartPolicy, and the pod goes on running.
    await new Promise((r) => setTimeout(r, 1_500))
    const status = JSON.parse((await run(['get', 'pod', 'counter', '-o', 'json'])).stdout) as {
      status: {
        phase: string
        ephemeralContainerStatuses: { name: string; restartCount: number; ready: boolean }[]
      }
    }
    expect(status.status.phase).toBe('Running')
    expect(status.status.ephemeralContainerStatuses).toEqual([
      expect.objectContaining({ name: 'dbg', restartCount: 0, ready: false }),
    ])
  })
})
