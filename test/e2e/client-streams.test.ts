import { spawn } from 'node:child_process'
import { PassThrough, Writable } from 'node:stream'
import { Exec, KubeConfig, PortForward, type V1Status } from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../src/bench/ports'
import { startNodeAgent, type AgentProcess } from './helpers/node-agent'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// exec and port-forward as the official clients drive them, unpatched: Debian's python3-kubernetes
// (v4.channel.k8s.io, stdin in text messages, `returncode` from the error channel, the kubelet's
// channel port-forward over several ports) and @kubernetes/client-node (v5 exec with its status
// callback, v4 port-forward). Real launcher and process agent; the pod runs two tiny HTTP servers.

const NODE = 'e2e-client-streams-node'
const NS = 'client-streams'
const POD = 'web'
const PYTHON = '/usr/bin/python3'
const ports = { a: 0, b: 0, closed: 0 }
let server: TestServer
let agent: AgentProcess

/** Answers every request with `hello from <port> <path>` (closing the connection after an HTTP/1.0 request). */
const httpServers = `
const http = require('http')
for (const p of process.argv.slice(1)) http.createServer((q, s) => s.end('hello from ' + p + ' ' + q.url)).listen(Number(p), '127.0.0.1')`

/** Runs a Python script with the server's kubeconfig as argv[1] (then `args`); resolves to the JSON it printed last. */
function python(script: string, args: string[] = []): Promise<unknown> {
  const prelude = `import json, sys\nfrom kubernetes import client, config\nfrom kubernetes.stream import stream, portforward\nconfig.load_kube_config(config_file=sys.argv[1])\ncore = client.CoreV1Api()\nNS, POD = ${JSON.stringify(NS)}, ${JSON.stringify(POD)}\n`
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-c', prelude + script, server.kubeconfig, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code !== 0)
        return reject(
          new Error(
            `python exited with ${code}:\n${stderr}\nagent:\n${agent.output().slice(-4000)}`,
          ),
        )
      resolve(JSON.parse(stdout.trim().split('\n').at(-1)!))
    })
  })
}

/** What client-node's portForward resolves to, as far as this test uses it. */
type Socket = { on(event: 'close', listener: () => void): unknown }

function collect(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = []
  const stream = new Writable({
    write: (chunk: Buffer, _enc, done) => void (chunks.push(chunk), done()),
  })
  return { stream, text: () => Buffer.concat(chunks).toString() }
}

beforeAll(async () => {
  ports.a = await freePort()
  ports.b = await freePort()
  ports.closed = await freePort()
  server = await startServer()
  agent = startNodeAgent(server.kubeconfig, NODE)
  const kc = new KubeConfig()
  kc.loadFromFile(server.kubeconfig)
  const ns = await server.request('/api/v1/namespaces', {
    method: 'POST',
    token: server.token,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }),
  })
  expect(ns.status).toBe(201)
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: POD },
    spec: {
      nodeName: NODE,
      containers: [
        {
          name: 'web',
          image: 'node',
          command: [process.execPath, '-e', httpServers, String(ports.a), String(ports.b)],
        },
      ],
    },
  }
  const created = await server.request(`/api/v1/namespaces/${NS}/pods`, {
    method: 'POST',
    token: server.token,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(pod),
  })
  expect(created.status, created.body).toBe(201)
  await waitFor(
    async () => {
      const res = await server.request(`/api/v1/namespaces/${NS}/pods/${POD}`, {
        token: server.token,
      })
      return JSON.parse(res.body).status?.containerStatuses?.[0]?.ready === true
    },
    { what: 'the pod ready', timeoutMs: 60_000, intervalMs: 250 },
  )
  // The servers listen a moment after the process starts: wait for an answer through the tunnel.
  await waitFor(
    async () =>
      (
        await server.request(`/api/v1/namespaces/${NS}/pods/${POD}:${ports.b}/proxy/`, {
          token: server.token,
        })
      ).status === 200,
    { what: 'the HTTP servers', timeoutMs: 30_000, intervalMs: 250 },
  )
})

afterAll(async () => {
  await agent?.stop()
  await server?.dispose()
})

describe('python3-kubernetes stream()', () => {
  it('runs a shell fed by write_stdin (text messages) and reads its stdout, stderr and return code', async () => {
    const result = await python(`
resp = stream(core.connect_get_namespaced_pod_exec, POD, NS, command=["/bin/sh"], stdin=True, stdout=True, stderr=True, tty=False, _preload_content=False)
resp.write_stdin("echo test string 1\\n")
line1 = resp.readline_stdout(timeout=10)
resp.write_stdin("echo test string 2 >&2\\n")
line2 = resp.readline_stderr(timeout=10)
resp.write_stdin("exit\\n")
resp.run_forever(timeout=10)
print(json.dumps([line1, line2, resp.is_open(), resp.returncode]))
`)
    expect(result).toEqual(['test string 1', 'test string 2', false, 0])
  })

  it("reports a command's exit code as returncode, and returns the output when preloading", async () => {
    const result = await python(`
resp = stream(core.connect_get_namespaced_pod_exec, POD, NS, command=["sh", "-c", "echo out; exit 3"], stdin=False, stdout=True, stderr=True, tty=False, _preload_content=False)
resp.run_forever(timeout=10)
preloaded = stream(core.connect_get_namespaced_pod_exec, POD, NS, command=["echo", "preloaded"], stderr=True, stdin=False, stdout=True, tty=False)
print(json.dumps([resp.read_stdout(), resp.returncode, preloaded]))
`)
    expect(result).toEqual(['out\n', 3, 'preloaded\n'])
  })

  it('forwards several ports over one connection with portforward(), and reports a refused port on its error channel', async () => {
    // HTTP through the forwarded sockets as the client's own tests use them: keep-alive
    // connections read by Content-Length; closing every socket closes the WebSocket.
    const result = await python(
      `
import http.client, time
a, b, refused = (int(p) for p in sys.argv[2:])
pf = portforward(core.connect_get_namespaced_pod_portforward, POD, NS, ports=",".join(sys.argv[2:]))
replies = {}
for port in (a, b):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.sock = pf.socket(port)
    conn.request("GET", "/via-python")
    res = conn.getresponse()
    replies[port] = [res.status, res.read().decode()]
deadline = time.time() + 10
while pf.error(refused) is None and time.time() < deadline:
    time.sleep(0.05)
errors = {p: pf.error(p) for p in (a, b, refused)}
connected = pf.connected
for p in (a, b, refused):
    pf.socket(p).close()
deadline = time.time() + 10
while pf.connected and time.time() < deadline:
    time.sleep(0.05)
print(json.dumps({"replies": replies, "errors": errors, "connected": [connected, pf.connected]}))
`,
      [String(ports.a), String(ports.b), String(ports.closed)],
    )
    const { replies, errors, connected } = result as {
      replies: Record<string, [number, string]>
      errors: Record<string, string | null>
      connected: boolean[]
    }
    expect(replies).toEqual({
      [ports.a]: [200, `hello from ${ports.a} /via-python`],
      [ports.b]: [200, `hello from ${ports.b} /via-python`],
    })
    expect(errors[ports.a]).toBeNull()
    expect(errors[ports.b]).toBeNull()
    expect(errors[ports.closed]).toMatch(
      new RegExp(
        `^error forwarding port ${ports.closed} to pod ${NS}/${POD}, uid [-0-9a-f]+: dial tcp4 127\\.0\\.0\\.1:${ports.closed}: connect: connection refused`,
      ),
    )
    // Open while the pod's connections are; closed once the client closed its sockets.
    expect(connected).toEqual([true, false])
  })
})

describe('@kubernetes/client-node', () => {
  const kc = () => {
    const k = new KubeConfig()
    k.loadFromFile(server.kubeconfig)
    return k
  }

  it('Exec.exec: stdin to its end, stdout and stderr, and the exit code in the status callback', async () => {
    const stdout = collect()
    const stderr = collect()
    const stdin = new PassThrough()
    const status = new Promise<V1Status>((resolve) => {
      void new Exec(kc()).exec(
        NS,
        POD,
        'web',
        ['sh', '-c', 'cat; echo bye >&2; exit 3'],
        stdout.stream,
        stderr.stream,
        stdin,
        false,
        resolve,
      )
    })
    stdin.end('from stdin\n')
    const s = await status
    expect(s).toMatchObject({
      status: 'Failure',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    })
    expect(s.message).toBe(
      'command terminated with non-zero exit code: error executing command [sh -c cat; echo bye >&2; exit 3], exit code 3',
    )
    expect(stdout.text()).toBe('from stdin\n')
    expect(stderr.text()).toBe('bye\n')

    const ok = await new Promise<V1Status>(
      (resolve) =>
        void new Exec(kc()).exec(
          NS,
          POD,
          'web',
          ['true'],
          collect().stream,
          null,
          null,
          false,
          resolve,
        ),
    )
    expect(ok).toEqual({ metadata: {}, status: 'Success' })
  })

  it('PortForward.portForward: an HTTP exchange with the pod, and a refused port on the error stream', async () => {
    const output = collect()
    const errors = collect()
    // The input stays open: client-node closes the socket when it ends.
    const input = new PassThrough()
    const ws = (await new PortForward(kc()).portForward(
      NS,
      POD,
      [ports.a],
      output.stream,
      errors.stream,
      input,
    )) as Socket
    const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()))
    input.write('GET /via-node HTTP/1.0\r\n\r\n')
    await closed
    expect(output.text()).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    expect(output.text().endsWith(`\r\n\r\nhello from ${ports.a} /via-node`)).toBe(true)
    expect(errors.text()).toBe('')

    const refusedErrors = collect()
    const refused = (await new PortForward(kc()).portForward(
      NS,
      POD,
      [ports.closed],
      collect().stream,
      refusedErrors.stream,
      new PassThrough(),
    )) as Socket
    await new Promise<void>((resolve) => refused.on('close', () => resolve()))
    expect(refusedErrors.text()).toContain(
      `error forwarding port ${ports.closed} to pod ${NS}/${POD}, uid `,
    )
    expect(refusedErrors.text()).toContain(
      `dial tcp4 127.0.0.1:${ports.closed}: connect: connection refused`,
    )
  })
})
