import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Docker from 'dockerode'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_IMAGE, testEngine } from './helpers/engine'
import { freePort } from '../../src/bench/ports'
import { kubectlOn } from './helpers/kubectl'
import { startKubectl } from './helpers/kubectl-stream'
import { kubectlInTerminal } from './helpers/kubectl-pty'
import { stream, type Manifest } from './helpers/manifests'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// Real containers: the real launcher, a node agent with `--runtime docker` driving the container
// engine on this machine (Podman's Docker-compatible service in CI), and the real kubectl. The
// image is a local busybox (`.ci/containers.sh` builds it), so nothing is pulled from a registry.

const IMAGE = TEST_IMAGE
const NODE = 'e2e-docker'
const engine = await testEngine('containers.test.ts')

let server: TestServer
let agent: AgentProcess
let stateDir: string
/** the node's pod CIDR, as node IPAM assigned it */
let podCIDR: string
const { run, ok } = kubectlOn(() => server.kubeconfig)

const web: Manifest[] = [
  {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'page' },
    data: { 'index.html': 'hello from a container\n' },
  },
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          terminationGracePeriodSeconds: 2,
          volumes: [{ name: 'page', configMap: { name: 'page' } }],
          containers: [
            {
              name: 'httpd',
              image: IMAGE,
              imagePullPolicy: 'Never',
              command: ['httpd', '-f', '-p', '8080', '-h', '/www'],
              ports: [{ containerPort: 8080 }],
              volumeMounts: [{ name: 'page', mountPath: '/www' }],
            },
            {
              name: 'sidecar',
              image: IMAGE,
              imagePullPolicy: 'IfNotPresent',
              command: ['sh', '-c', 'echo sidecar up; echo on stderr >&2; exec sleep 3600'],
            },
          ],
        },
      },
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web' },
    spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] },
  },
]

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { timeout: 3_000 }, (res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', reject)
    req.end()
  })
}

interface PodJson {
  metadata: { name: string; uid: string }
  status: {
    phase?: string
    podIP?: string
    containerStatuses?: {
      name: string
      ready: boolean
      restartCount: number
      containerID?: string
      imageID?: string
      state: Record<string, { reason?: string; message?: string }>
      lastState: Record<string, { exitCode?: number; reason?: string }>
    }[]
  }
}

async function webPods(): Promise<PodJson[]> {
  const res = await ok(['get', 'pods', '-l', 'app=web', '-o', 'json'])
  return (JSON.parse(res.stdout) as { items: PodJson[] }).items
}

const onEngine = () => (engine as { docker: Docker }).docker

describe.skipIf('skip' in engine)('the docker runtime against a real container engine', () => {
  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'edgeplane-docker-'))
    server = await startServer()
    agent = startAgent(
      server.kubeconfig,
      [
        '--name',
        NODE,
        '--runtime',
        'docker',
        '--container-socket',
        (engine as { socket: string }).socket,
        '--pod-infra-image',
        IMAGE,
        '--verbose',
      ],
      {
        EDGEPLANE_AGENT_BACKOFF_BASE_MS: '1000',
        EDGEPLANE_AGENT_STATE_DIR: stateDir,
      },
    )
    // Node IPAM gives the node its podCIDR: pod IPs then come from an engine network of that subnet.
    podCIDR = await waitFor(
      async () =>
        (await run(['get', 'node', NODE, '-o', 'jsonpath={.spec.podCIDR}'])).stdout.trim() ||
        undefined,
      { what: `node ${NODE} registered with a podCIDR`, timeoutMs: 60_000, intervalMs: 250 },
    )
    await ok(['apply', '-f', '-'], stream(...web))
    try {
      await waitFor(
        async () => {
          const pods = await webPods()
          return (
            pods.length === 2 &&
            pods.every(
              (p) =>
                p.status.phase === 'Running' && p.status.containerStatuses?.every((c) => c.ready),
            )
          )
        },
        { what: 'two web pods Running and ready', timeoutMs: 120_000, intervalMs: 500 },
      )
    } catch (err) {
      throw new Error(`${(err as Error).message}\nagent output:\n${agent.output()}`)
    }
  }, 180_000)

  afterAll(async () => {
    await run([
      'delete',
      'deployment/web',
      'pod/crasher',
      'pod/missing',
      '--ignore-not-found',
      '--wait=false',
    ])
    await agent?.stop()
    await server?.dispose()
    // Whatever a failed test left behind on the engine goes too.
    const left = await onEngine().listContainers({
      all: true,
      filters: { label: [`io.edgeplane.node=${NODE}`] },
    })
    const infraLast = (c: Docker.ContainerInfo) =>
      c.Labels['io.kubernetes.container.name'] === 'POD' ? 1 : 0
    for (const c of left.sort((a, b) => infraLast(a) - infraLast(b)))
      await onEngine()
        .getContainer(c.Id)
        .remove({ force: true })
        .catch(() => {})
    await onEngine()
      .getNetwork(`edgeplane-${NODE}`)
      .remove()
      .catch(() => {})
    rmSync(stateDir, { recursive: true, force: true })
  }, 60_000)

  it('runs the pods with their own IPs, in Endpoints, serving the page', async () => {
    const pods = await webPods()
    const ips = pods.map((p) => p.status.podIP!)
    expect(new Set(ips).size).toBe(2)
    expect(podCIDR).toMatch(/^10\.244\.\d+\.0\/24$/)
    const prefix = podCIDR.split('.').slice(0, 3).join('.') + '.'
    for (const ip of ips) expect(ip.startsWith(prefix), `${ip} in ${podCIDR}`).toBe(true)
    for (const p of pods) {
      const httpd = p.status.containerStatuses!.find((c) => c.name === 'httpd')!
      expect(httpd.containerID).toMatch(/^docker:\/\/[0-9a-f]{64}$/)
      expect(httpd.imageID).toMatch(/^docker:\/\/(sha256:)?[0-9a-f]{64}$/)
    }
    const endpoints = await waitFor(
      async () => {
        const res = await run([
          'get',
          'endpoints',
          'web',
          '-o',
          'jsonpath={.subsets[*].addresses[*].ip}',
        ])
        const got = res.stdout.trim().split(/\s+/).filter(Boolean).sort()
        return got.length === 2 ? got : undefined
      },
      { what: 'endpoints of web', timeoutMs: 30_000, intervalMs: 500 },
    )
    expect(endpoints).toEqual([...ips].sort())
    for (const ip of ips)
      expect(await get(`http://${ip}:8080/index.html`)).toEqual({
        status: 200,
        body: 'hello from a container\n',
      })
  })

  it('kubectl port-forward reaches a container port on the pod IP', async () => {
    const pod = (await webPods())[0]!
    const local = await freePort()
    const pf = startKubectl(['port-forward', `pod/${pod.metadata.name}`, `${local}:8080`], {
      kubeconfig: server.kubeconfig,
      timeoutMs: 60_000,
    })
    try {
      await waitFor(() => pf.stdout().includes('Forwarding from') || pf.done(), {
        what: 'kubectl port-forward listening',
        timeoutMs: 30_000,
      })
      expect(pf.done(), pf.stderr()).toBe(false)
      const res = await get(`http://127.0.0.1:${local}/index.html`)
      expect(res.status).toBe(200)
      expect(res.body).toBe('hello from a container\n')
    } finally {
      await pf.stop()
    }
  })

  it("serves a NodePort on the agent, to the pods' IPs", async () => {
    await ok(['create', 'service', 'nodeport', 'web-np', '--tcp=80:8080'])
    await ok(['set', 'selector', 'service/web-np', 'app=web'])
    const nodePort = Number(
      (await ok(['get', 'service', 'web-np', '-o', 'jsonpath={.spec.ports[0].nodePort}'])).stdout,
    )
    const res = await waitFor(
      () =>
        get(`http://${agent.nodePortAddress}:${nodePort}/index.html`).then(
          (r) => (r.status === 200 ? r : undefined),
          () => undefined,
        ),
      { what: 'the node port answering', timeoutMs: 30_000, intervalMs: 250 },
    )
    expect(res.body).toBe('hello from a container\n')
  })

  it('the Node reports its runtime, its engine and the images it holds', async () => {
    const node = JSON.parse((await ok(['get', 'node', NODE, '-o', 'json'])).stdout) as {
      metadata: { labels: Record<string, string> }
      status: { nodeInfo: { containerRuntimeVersion: string }; images?: { names: string[] }[] }
    }
    expect(node.metadata.labels['edgeplane.io/runtime']).toBe('docker')
    expect(node.status.nodeInfo.containerRuntimeVersion).toMatch(/^(docker|podman):\/\/\d+\./)
    expect(node.status.images?.flatMap((i) => i.names)).toContain(IMAGE)
  })

  it('kubectl logs, exec (sharing the pod network) and cp reach the containers', async () => {
    const [pod] = await webPods()
    const name = pod!.metadata.name
    const logs = await ok(['logs', name, '-c', 'sidecar'])
    expect(logs.stdout).toBe('sidecar up\non stderr\n')
    expect((await ok(['logs', name, '-c', 'sidecar', '--tail=1'])).stdout).toBe('on stderr\n')
    expect((await ok(['logs', name, '-c', 'sidecar', '--timestamps'])).stdout).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z sidecar up\n/,
    )
    expect((await ok(['logs', name, '-c', 'sidecar', '--since=1h'])).stdout).toBe(
      'sidecar up\non stderr\n',
    )
    const follow = startKubectl(['logs', '-f', name, '-c', 'sidecar'], {
      kubeconfig: server.kubeconfig,
      timeoutMs: 20_000,
    })
    await waitFor(() => follow.stdout().includes('on stderr'), {
      what: 'logs -f output',
      timeoutMs: 15_000,
      intervalMs: 200,
    })
    await follow.stop()
    const viaLocalhost = await ok([
      'exec',
      name,
      '-c',
      'sidecar',
      '--',
      'wget',
      '-qO-',
      'http://127.0.0.1:8080/index.html',
    ])
    expect(viaLocalhost.stdout).toBe('hello from a container\n')
    const failing = await run(['exec', name, '-c', 'sidecar', '--', 'sh', '-c', 'exit 7'])
    expect(failing.code).toBe(7)
    const dir = mkdtempSync(join(tmpdir(), 'edgeplane-cp-'))
    try {
      writeFileSync(join(dir, 'note.txt'), 'copied in\n')
      await ok(['cp', join(dir, 'note.txt'), `${name}:/tmp/note.txt`, '-c', 'sidecar'])
      expect((await ok(['exec', name, '-c', 'sidecar', '--', 'cat', '/tmp/note.txt'])).stdout).toBe(
        'copied in\n',
      )
      await ok(['cp', `${name}:/tmp/note.txt`, join(dir, 'back.txt'), '-c', 'sidecar'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('kubectl attach streams the output of the container process, and with -i feeds its stdin', async () => {
    const pods: Manifest[] = [
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'ticker' },
        spec: {
          terminationGracePeriodSeconds: 0,
          containers: [
            {
              name: 'main',
              image: IMAGE,
              imagePullPolicy: 'Never',
              command: [
                'sh',
                '-c',
                'i=0; while true; do echo tick $i; i=$((i+1)); sleep 0.3; done',
              ],
            },
          ],
        },
      },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'echoer' },
        spec: {
          terminationGracePeriodSeconds: 0,
          restartPolicy: 'Never',
          containers: [
            {
              name: 'main',
              image: IMAGE,
              imagePullPolicy: 'Never',
              stdin: true,
              stdinOnce: true,
              command: ['sh', '-c', 'cat; echo stdin closed'],
            },
          ],
        },
      },
    ]
    await ok(['apply', '-f', '-'], stream(...pods))
    for (const name of ['ticker', 'echoer']) {
      await waitFor(
        async () =>
          (await run(['get', 'pod', name, '-o', 'jsonpath={.status.phase}'])).stdout === 'Running',
        { what: `${name} Running`, timeoutMs: 60_000, intervalMs: 300 },
      )
    }
    const attached = startKubectl(['attach', 'ticker', '-c', 'main'], {
      kubeconfig: server.kubeconfig,
      timeoutMs: 30_000,
    })
    await waitFor(() => /tick \d+\n.*tick \d+/s.test(attached.stdout()), {
      what: 'ticks through attach',
      timeoutMs: 20_000,
      intervalMs: 200,
    })
    await attached.stop()
    // stdin reaches cat; its end closes the process's stdin (stdinOnce), cat ends, and so does attach.
    const withStdin = await run(['attach', '-i', 'echoer', '-c', 'main'], 'hello through attach\n')
    expect(withStdin.code, withStdin.stderr).toBe(0)
    expect(withStdin.stdout).toContain('hello through attach\nstdin closed\n')
    await waitFor(
      async () =>
        (await run(['get', 'pod', 'echoer', '-o', 'jsonpath={.status.phase}'])).stdout ===
        'Succeeded',
      { what: 'echoer Succeeded', timeoutMs: 30_000, intervalMs: 300 },
    )
    await ok(['delete', 'pod', 'ticker', 'echoer', '--wait=false'])
  }, 120_000)

  it('kubectl run -i --rm runs a pod, feeds it stdin, prints its output and deletes it', async () => {
    const res = await run(
      [
        'run',
        'once',
        '-i',
        '--rm',
        '--restart=Never',
        `--image=${IMAGE}`,
        '--image-pull-policy=Never',
        '--command',
        '--',
        'sh',
        '-c',
        'read line; echo got $line',
      ],
      'world\n',
    )
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toContain('got world')
    await waitFor(async () => (await run(['get', 'pod', 'once'])).code !== 0, {
      what: 'pod once deleted',
      timeoutMs: 30_000,
      intervalMs: 300,
    })
  }, 120_000)

  it("kubectl exec -it gives the command a terminal of the client's window size", async () => {
    const [pod] = await webPods()
    const res = await kubectlInTerminal(
      [
        'exec',
        '-it',
        pod!.metadata.name,
        '-c',
        'sidecar',
        '--',
        'sh',
        '-c',
        'tty; stty size; [ -t 0 ] && echo stdin is a terminal',
      ],
      { kubeconfig: server.kubeconfig, cols: 91, rows: 33 },
    )
    expect(res.code, res.stdout + res.stderr).toBe(0)
    expect(res.stdout).toMatch(/\/dev\/pts\/\d+/)
    expect(res.stdout).toContain('33 91')
    expect(res.stdout).toContain('stdin is a terminal')
  }, 60_000)

  it("kubectl debug runs an ephemeral container in the pod: its network, and with --target its container's processes", async () => {
    const [pod] = await webPods()
    const name = pod!.metadata.name
    const script =
      'busybox wget -qO- http://127.0.0.1:8080/index.html; busybox ps -o args; echo debug done'
    const debug = await run([
      'debug',
      name,
      `--image=${IMAGE}`,
      '--image-pull-policy=Never',
      '-c',
      'dbg',
      '--target=httpd',
      '--',
      'sh',
      '-c',
      script,
    ])
    expect(debug.code, debug.stderr).toBe(0)
    const status = await waitFor(
      async () => {
        const p = JSON.parse((await ok(['get', 'pod', name, '-o', 'json'])).stdout) as {
          status: {
            ephemeralContainerStatuses?: {
              name: string
              state: { terminated?: { exitCode: number; reason: string } }
              containerID?: string
            }[]
          }
        }
        const s = p.status.ephemeralContainerStatuses?.find((c) => c.name === 'dbg')
        return s?.state.terminated ? s : undefined
      },
      { what: 'the ephemeral container dbg terminated', timeoutMs: 60_000, intervalMs: 300 },
    )
    expect(status.state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' })
    expect(status.containerID).toMatch(/^docker:\/\//)
    const logs = (await ok(['logs', name, '-c', 'dbg'])).stdout
    // The pod's localhost is the ephemeral container's: it reaches httpd on 127.0.0.1.
    expect(logs).toContain('hello from a container')
    // --target shares httpd's process namespace: its process is in the list.
    expect(logs).toMatch(/httpd -f -p 8080/)
    expect(logs).toContain('debug done')
    // The pod itself goes on: Running and ready, its containers not restarted.
    const after = (await webPods()).find((p) => p.metadata.name === name)!
    expect(after.status.phase).toBe('Running')
    expect(after.status.containerStatuses?.every((c) => c.ready && c.restartCount === 0)).toBe(true)
    // kubectl debug -i waits for the ephemeral container to run, then attaches to it with stdin.
    const interactive = await run(
      [
        'debug',
        name,
        '-i',
        `--image=${IMAGE}`,
        '--image-pull-policy=Never',
        '-c',
        'dbg-i',
        '--',
        'sh',
        '-c',
        'read line; echo debugger got $line',
      ],
      'a line\n',
    )
    expect(interactive.code, interactive.stderr).toBe(0)
    expect(interactive.stdout).toContain('debugger got a line')
    // kubectl debug -it on a terminal: the ephemeral container has one, resized to the client's
    // window once kubectl attaches (the command waits for that, at most 15 s, then prints).
    const terminal = await kubectlInTerminal(
      [
        'debug',
        name,
        '-it',
        `--image=${IMAGE}`,
        '--image-pull-policy=Never',
        '-c',
        'dbg-tty',
        '--',
        'sh',
        '-c',
        'i=0; while [ "$(stty size)" != "22 77" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i+1)); done; tty; stty size',
      ],
      { kubeconfig: server.kubeconfig, cols: 77, rows: 22, timeoutMs: 60_000 },
    )
    expect(terminal.code, terminal.stdout + terminal.stderr).toBe(0)
    expect(terminal.stdout).toMatch(/\/dev\/pts\/\d+/)
    expect(terminal.stdout).toContain('22 77')
  }, 120_000)

  it('runs init containers first, shares emptyDir, probes through the engine, and applies the security context', async () => {
    const specPod: Manifest = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'spec' },
      spec: {
        terminationGracePeriodSeconds: 0,
        volumes: [{ name: 'work', emptyDir: {} }],
        initContainers: [
          {
            name: 'prepare',
            image: IMAGE,
            imagePullPolicy: 'Never',
            command: ['sh', '-c', 'echo prepared > /work/ready'],
            volumeMounts: [{ name: 'work', mountPath: '/work' }],
          },
        ],
        containers: [
          {
            name: 'main',
            image: IMAGE,
            imagePullPolicy: 'Never',
            command: ['sh', '-c', 'id -u > /work/uid; exec sleep 3600'],
            workingDir: '/work',
            securityContext: { runAsUser: 1234, readOnlyRootFilesystem: true },
            resources: { limits: { cpu: '500m', memory: '64Mi' } },
            readinessProbe: { exec: { command: ['cat', '/work/ready'] }, periodSeconds: 1 },
            volumeMounts: [{ name: 'work', mountPath: '/work' }],
          },
        ],
      },
    }
    const hostPod: Manifest = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'on-host' },
      spec: {
        hostNetwork: true,
        terminationGracePeriodSeconds: 0,
        containers: [
          { name: 'main', image: IMAGE, imagePullPolicy: 'Never', command: ['sleep', '3600'] },
        ],
      },
    }
    await ok(['apply', '-f', '-'], stream(specPod, hostPod))
    await waitFor(
      async () =>
        (await run(['get', 'pod', 'spec', '-o', 'jsonpath={.status.containerStatuses[0].ready}']))
          .stdout === 'true',
      { what: 'pod spec ready', timeoutMs: 60_000, intervalMs: 300 },
    )
    const init = JSON.parse(
      (await ok(['get', 'pod', 'spec', '-o', 'jsonpath={.status.initContainerStatuses[0].state}']))
        .stdout,
    )
    expect(init.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' })
    expect((await ok(['exec', 'spec', '--', 'cat', 'uid'])).stdout).toBe('1234\n')
    const id = (
      await ok(['get', 'pod', 'spec', '-o', 'jsonpath={.status.containerStatuses[0].containerID}'])
    ).stdout.replace('docker://', '')
    expect((await onEngine().getContainer(id).inspect()).HostConfig).toMatchObject({
      Memory: 64 * 2 ** 20,
      NanoCpus: 500_000_000,
    })
    const readOnly = await run(['exec', 'spec', '--', 'touch', '/made-here'])
    expect(readOnly.code).not.toBe(0)
    expect(readOnly.stderr).toMatch(/Read-only file system/)
    const host = await waitFor(
      async () => {
        const p = JSON.parse((await ok(['get', 'pod', 'on-host', '-o', 'json'])).stdout) as {
          status: { phase?: string; podIP?: string; hostIP?: string }
        }
        return p.status.phase === 'Running' ? p.status : undefined
      },
      { what: 'pod on-host Running', timeoutMs: 60_000, intervalMs: 300 },
    )
    expect(host.podIP).toBe(host.hostIP)
    await ok(['delete', 'pod', 'spec', 'on-host', '--wait=false'])
  }, 120_000)

  it('updates a configMap volume after the ConfigMap changes', async () => {
    await ok([
      'patch',
      'configmap',
      'page',
      '--type=merge',
      '-p',
      JSON.stringify({ data: { 'index.html': 'changed page\n' } }),
    ])
    const ips = (await webPods()).map((p) => p.status.podIP!)
    for (const ip of ips) {
      await waitFor(
        async () => (await get(`http://${ip}:8080/index.html`)).body === 'changed page\n',
        { what: `the new page on ${ip}`, timeoutMs: 70_000, intervalMs: 1_000 },
      )
    }
  }, 150_000)

  it('a crashing container reaches CrashLoopBackOff with a growing restartCount', async () => {
    const crasher: Manifest = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'crasher' },
      spec: {
        terminationGracePeriodSeconds: 1,
        containers: [
          {
            name: 'main',
            image: IMAGE,
            imagePullPolicy: 'Never',
            command: ['sh', '-c', 'echo about to fail; exit 3'],
          },
        ],
      },
    }
    await ok(['apply', '-f', '-'], stream(crasher))
    const status = await waitFor(
      async () => {
        const res = await ok(['get', 'pod', 'crasher', '-o', 'json'])
        const c = (JSON.parse(res.stdout) as PodJson).status.containerStatuses?.[0]
        return c && c.restartCount >= 2 && c.state.waiting?.reason === 'CrashLoopBackOff'
          ? c
          : undefined
      },
      {
        what: 'crasher in CrashLoopBackOff after two restarts',
        timeoutMs: 90_000,
        intervalMs: 500,
      },
    )
    expect(status.lastState.terminated).toMatchObject({ exitCode: 3, reason: 'Error' })
    expect((await ok(['logs', 'crasher', '--previous'])).stdout).toBe('about to fail\n')
  }, 120_000)

  it('an image that cannot be pulled shows ErrImagePull, then ImagePullBackOff', async () => {
    const missing: Manifest = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'missing' },
      spec: {
        containers: [
          {
            name: 'main',
            image: 'localhost/edgeplane-no-such-image:1',
            imagePullPolicy: 'IfNotPresent',
          },
        ],
      },
    }
    await ok(['apply', '-f', '-'], stream(missing))
    const seen = new Set<string>()
    await waitFor(
      async () => {
        const res = await ok([
          'get',
          'pod',
          'missing',
          '-o',
          'jsonpath={.status.containerStatuses[0].state.waiting.reason}',
        ])
        if (res.stdout) seen.add(res.stdout)
        return seen.has('ErrImagePull') && seen.has('ImagePullBackOff')
      },
      { what: 'ErrImagePull and ImagePullBackOff', timeoutMs: 60_000, intervalMs: 200 },
    )
    const message = await ok([
      'get',
      'pod',
      'missing',
      '-o',
      'jsonpath={.status.containerStatuses[0].state.waiting.message}',
    ])
    expect(message.stdout).toContain('localhost/edgeplane-no-such-image:1')
  }, 90_000)

  it('records the kubelet events of each container', async () => {
    const [pod] = await webPods()
    const res = await ok([
      'get',
      'events',
      '--field-selector',
      `involvedObject.name=${pod!.metadata.name}`,
      '-o',
      'json',
    ])
    const events = (
      JSON.parse(res.stdout) as {
        items: { reason: string; message: string; source: { component: string } }[]
      }
    ).items
    const messages = events.map((e) => `${e.reason}: ${e.message}`)
    expect(messages).toEqual(
      expect.arrayContaining([
        `Pulled: Container image "${IMAGE}" already present on machine`,
        'Created: Created container httpd',
        'Started: Started container httpd',
        'Started: Started container sidecar',
      ]),
    )
    expect(
      events
        .filter((e) => ['Pulled', 'Created', 'Started'].includes(e.reason))
        .every((e) => e.source.component === 'kubelet'),
    ).toBe(true)
    const described = await ok(['describe', 'pod', pod!.metadata.name])
    expect(described.stdout).toMatch(/Normal\s+Started\s+.*Started container httpd/)
  })

  it('a restarted agent adopts the running containers instead of starting them again', async () => {
    const before = (await webPods()).map((p) => ({
      name: p.metadata.name,
      ids: p.status.containerStatuses!.map((c) => `${c.containerID}/${c.restartCount}`).sort(),
    }))
    await agent.stop()
    agent = startAgent(
      server.kubeconfig,
      [
        '--name',
        NODE,
        '--runtime',
        'docker',
        '--container-socket',
        (engine as { socket: string }).socket,
        '--pod-infra-image',
        IMAGE,
        '--verbose',
      ],
      {
        EDGEPLANE_AGENT_BACKOFF_BASE_MS: '1000',
        EDGEPLANE_AGENT_STATE_DIR: stateDir,
      },
    )
    await waitFor(() => agent.output().includes('adopted the running containers'), {
      what: 'the new agent adopting its pods',
      timeoutMs: 30_000,
      intervalMs: 250,
    })
    await waitFor(() => agent.output().includes('ready and watching pods'), {
      what: 'the new agent synced',
      timeoutMs: 30_000,
      intervalMs: 250,
    })
    const after = (await webPods()).map((p) => ({
      name: p.metadata.name,
      ids: p.status.containerStatuses!.map((c) => `${c.containerID}/${c.restartCount}`).sort(),
    }))
    expect(after).toEqual(before)
    for (const ip of (await webPods()).map((p) => p.status.podIP!))
      expect((await get(`http://${ip}:8080/index.html`)).status).toBe(200)
  }, 90_000)

  it('deleting the Deployment leaves no container behind', async () => {
    const uids = (await webPods()).map((p) => p.metadata.uid)
    await ok(['delete', 'deployment', 'web'])
    await waitFor(async () => (await webPods()).length === 0, {
      what: 'web pods gone',
      timeoutMs: 60_000,
      intervalMs: 500,
    })
    for (const uid of uids) {
      await waitFor(
        async () =>
          (
            await onEngine().listContainers({
              all: true,
              filters: { label: [`io.kubernetes.pod.uid=${uid}`] },
            })
          ).length === 0,
        {
          what: `no container of pod ${uid} on the engine`,
          timeoutMs: 30_000,
          intervalMs: 500,
        },
      )
    }
    expect(agent.output()).not.toMatch(/removing container \S+ failed/)
  }, 120_000)
})
