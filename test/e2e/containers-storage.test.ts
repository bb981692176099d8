import { existsSync, readFileSync } from 'node:fs'
import Docker from 'dockerode'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_IMAGE, testEngine } from './helpers/engine'
import { kubectlOn } from './helpers/kubectl'
import { stream } from './helpers/manifests'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// A PersistentVolumeClaim of the default edgeplane-local-path class mounted into real containers: the real
// launcher, a `--runtime docker` agent against the engine on this machine, and the real kubectl.

const IMAGE = TEST_IMAGE
const NODE = 'e2e-docker-pvc'
const engine = await testEngine('containers-storage.test.ts')

let server: TestServer
let agent: AgentProcess
const { run, ok } = kubectlOn(() => server.kubeconfig)

describe.skipIf('skip' in engine)('claims mounted by the docker runtime', () => {
  beforeAll(async () => {
    server = await startServer()
    agent = startAgent(server.kubeconfig, [
      '--name',
      NODE,
      '--runtime',
      'docker',
      '--container-socket',
      (engine as { socket: string }).socket,
      '--pod-infra-image',
      IMAGE,
    ])
    await waitFor(
      async () =>
        (await run(['get', 'node', NODE, '-o', 'jsonpath={.spec.podCIDR}'])).stdout.trim() ||
        undefined,
      { what: `node ${NODE} registered`, timeoutMs: 60_000, intervalMs: 250 },
    )
  }, 90_000)

  afterAll(async () => {
    await run(['delete', 'pod', 'writer', '--ignore-not-found', '--wait=false'])
    await agent?.stop()
    await server?.dispose()
    const docker = (engine as { docker: Docker }).docker
    const left = await docker.listContainers({
      all: true,
      filters: { label: [`io.edgeplane.node=${NODE}`] },
    })
    const infraLast = (c: Docker.ContainerInfo) =>
      c.Labels['io.kubernetes.container.name'] === 'POD' ? 1 : 0
    for (const c of left.sort((a, b) => infraLast(a) - infraLast(b)))
      await docker
        .getContainer(c.Id)
        .remove({ force: true })
        .catch(() => {})
    await docker
      .getNetwork(`edgeplane-${NODE}`)
      .remove()
      .catch(() => {})
  }, 60_000)

  it('binds a local-path claim on the node and mounts it with subPath and readOnly honoured', async () => {
    await ok(
      ['apply', '-f', '-'],
      stream(
        {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: 'files' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '100Mi' } } },
        },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'writer' },
          spec: {
            terminationGracePeriodSeconds: 1,
            volumes: [{ name: 'vol', persistentVolumeClaim: { claimName: 'files' } }],
            containers: [
              {
                name: 'main',
                image: IMAGE,
                imagePullPolicy: 'Never',
                command: ['sh', '-c', 'echo from-container > /data/note; exec sleep 3600'],
                volumeMounts: [
                  { name: 'vol', mountPath: '/data', subPath: 'sub' },
                  { name: 'vol', mountPath: '/all', readOnly: true },
                ],
              },
            ],
          },
        },
      ),
    )
    try {
      await waitFor(
        async () =>
          (await run(['get', 'pod', 'writer', '-o', 'jsonpath={.status.phase}'])).stdout ===
          'Running',
        { what: 'pod writer Running', timeoutMs: 90_000, intervalMs: 500 },
      )
    } catch (err) {
      throw new Error(
        `${(err as Error).message}\n${(await run(['describe', 'pod', 'writer'])).stdout}\nagent output:\n${agent.output()}`,
      )
    }
    const claim = JSON.parse((await ok(['get', 'pvc', 'files', '-o', 'json'])).stdout)
    expect(claim.status.phase).toBe('Bound')
    const pv = JSON.parse((await ok(['get', 'pv', claim.spec.volumeName, '-o', 'json'])).stdout)
    const dir: string = pv.spec.local.path
    expect(dir.startsWith(agent.stateDir)).toBe(true)
    // The subPath mount wrote into <volume>/sub; the whole volume is visible read-only elsewhere.
    await waitFor(() => existsSync(`${dir}/sub/note`), {
      what: 'the file on the node',
      timeoutMs: 20_000,
    })
    expect(readFileSync(`${dir}/sub/note`, 'utf8')).toBe('from-container\n')
    expect((await ok(['exec', 'writer', '--', 'cat', '/all/sub/note'])).stdout).toBe(
      'from-container\n',
    )
    const refused = await run(['exec', 'writer', '--', 'sh', '-c', 'echo x > /all/other'])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr + refused.stdout).toMatch(/Read-only file system/i)

    await ok(['delete', 'pod', 'writer', '--wait=true'])
    await ok(['delete', 'pvc', 'files'])
    await waitFor(
      async () => !(await ok(['get', 'pv', '-o', 'name'])).stdout.includes(pv.metadata.name),
      { what: 'the volume deleted', timeoutMs: 30_000 },
    )
    expect(existsSync(dir)).toBe(false)
  }, 180_000)
})
