import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { kubectlJson, kubectlOn } from './helpers/kubectl'
import { startAgent, type AgentProcess } from './helpers/node-agent'
import { podManifest, stream, type Manifest } from './helpers/manifests'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'

// Pod Security admission with the real kubectl, as the Kubernetes docs page "Enforce Pod Security
// Standards with Namespace Labels" walks through it: labels that refuse, warn about and list pods.

let server: TestServer
const { run, ok } = kubectlOn(() => server.kubeconfig)

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.dispose()
})

const privilegedSpec = (name: string) => ({
  containers: [
    { name, image: 'busybox', command: ['sleep', '3600'], securityContext: { privileged: true } },
  ],
})

/** A pod of `namespace` with exactly this spec. */
const inNamespace = (name: string, namespace: string, spec: Record<string, unknown>): Manifest => ({
  ...podManifest(name, { namespace }),
  spec,
})

async function namespace(name: string, labels: Record<string, string> = {}) {
  await ok(['create', 'namespace', name])
  if (Object.keys(labels).length)
    await ok(['label', 'namespace', name, ...Object.entries(labels).map(([k, v]) => `${k}=${v}`)])
}

/** kubectl's warning lines (`Warning: …`), without the prefix. */
const warnings = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('Warning: '))
    .map((l) => l.slice('Warning: '.length))

describe('Pod Security admission with kubectl', () => {
  it("refuses a privileged pod where enforce is baseline, with upstream's message, and stores nothing", async () => {
    await namespace('psa-enforce', { 'pod-security.kubernetes.io/enforce': 'baseline' })
    const refused = await run(
      ['apply', '-f', '-'],
      stream(inNamespace('priv', 'psa-enforce', privilegedSpec('priv'))),
    )
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain(
      'Error from server (Forbidden): error when creating "STDIN": pods "priv" is forbidden: violates PodSecurity "baseline:latest": privileged (container "priv" must not set securityContext.privileged=true)',
    )
    const missing = await run(['get', 'pod', 'priv', '-n', 'psa-enforce'])
    expect(missing.stderr).toContain('pods "priv" not found')
    // A pod that meets baseline is created, with no warning.
    const plain = await ok([
      'run',
      'plain',
      '-n',
      'psa-enforce',
      '--image=busybox',
      '--',
      'sleep',
      '3600',
    ])
    expect(plain.stdout).toContain('pod/plain created')
    expect(warnings(plain.stderr)).toEqual([])
  })

  it('refuses an ephemeral container that breaks the enforce level', async () => {
    const patch = JSON.stringify({
      spec: {
        ephemeralContainers: [
          { name: 'debugger', image: 'busybox', securityContext: { privileged: true } },
        ],
      },
    })
    const refused = await run([
      'patch',
      'pod',
      'plain',
      '-n',
      'psa-enforce',
      '--subresource=ephemeralcontainers',
      '--type=strategic',
      '-p',
      patch,
    ])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain(
      'pods "plain" is forbidden: violates PodSecurity "baseline:latest": privileged (container "debugger" must not set securityContext.privileged=true)',
    )
    const stored = await ok([
      'get',
      'pod',
      'plain',
      '-n',
      'psa-enforce',
      '-o',
      'jsonpath={.spec.ephemeralContainers}',
    ])
    expect(stored.stdout).toBe('')
  })

  it('accepts a pod where only warn is set, and kubectl prints the warning', async () => {
    await namespace('psa-warn', { 'pod-security.kubernetes.io/warn': 'restricted' })
    const res = await ok(['run', 'web', '-n', 'psa-warn', '--image=busybox', '--', 'sleep', '3600'])
    expect(res.stdout).toContain('pod/web created')
    expect(warnings(res.stderr)).toEqual([
      'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    ])
  })

  it('accepts a Deployment with a privileged template, warning; its ReplicaSet reports the refused pods', async () => {
    const deployment: Manifest = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'psa-enforce' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: privilegedSpec('app') },
      },
    }
    const res = await ok(['apply', '-f', '-'], stream(deployment))
    expect(res.stdout).toContain('deployment.apps/web created')
    expect(warnings(res.stderr)).toEqual([
      'would violate PodSecurity "baseline:latest": privileged (container "app" must not set securityContext.privileged=true)',
    ])
    const described = await waitFor(
      async () => {
        const out = await run(['describe', 'rs', '-n', 'psa-enforce', '-l', 'app=web'])
        return out.stdout.includes('FailedCreate') ? out.stdout : false
      },
      { what: 'FailedCreate on the ReplicaSet', timeoutMs: 40_000 },
    )
    expect(described).toMatch(
      /Warning\s+FailedCreate\s+.*replicaset-controller\s+Error creating: pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: violates PodSecurity "baseline:latest": privileged \(container "app" must not set securityContext.privileged=true\)/,
    )
    expect(
      (await ok(['get', 'pods', '-n', 'psa-enforce', '-l', 'app=web', '-o', 'name'])).stdout,
    ).toBe('')
  })

  it('lists the existing pods a new enforce level would refuse, on a dry run and on the real change', async () => {
    await namespace('psa-label')
    await ok(
      ['apply', '-f', '-'],
      stream(
        inNamespace('priv-a', 'psa-label', privilegedSpec('c')),
        inNamespace('priv-b', 'psa-label', privilegedSpec('c')),
        inNamespace('net', 'psa-label', {
          hostNetwork: true,
          containers: [{ name: 'c', image: 'busybox' }],
        }),
      ),
    )
    const expected = [
      'existing pods in namespace "psa-label" violate the new PodSecurity enforce level "baseline:latest"',
      'net: host namespaces',
      'priv-a (and 1 other pod): privileged',
    ]

    const dry = await ok([
      'label',
      'namespace',
      'psa-label',
      'pod-security.kubernetes.io/enforce=baseline',
      '--dry-run=server',
    ])
    expect(dry.stdout).toContain('namespace/psa-label labeled (server dry run)')
    expect(warnings(dry.stderr)).toEqual(expected)
    // The next ordinary request works, and the dry run changed nothing.
    const labels = await ok(['get', 'namespace', 'psa-label', '-o', 'jsonpath={.metadata.labels}'])
    expect(labels.stdout).not.toContain('pod-security')
    await ok(['apply', '-f', '-'], stream(inNamespace('priv-c', 'psa-label', privilegedSpec('c'))))

    const real = await ok([
      'label',
      'namespace',
      'psa-label',
      'pod-security.kubernetes.io/enforce=baseline',
    ])
    expect(real.stdout).toContain('namespace/psa-label labeled')
    expect(warnings(real.stderr)).toEqual([
      expected[0],
      expected[1],
      'priv-a (and 2 other pods): privileged',
    ])
    // Existing pods stay; new ones are held to the level at once.
    expect(
      (await ok(['get', 'pods', '-n', 'psa-label', '-o', 'name'])).stdout
        .split('\n')
        .filter(Boolean),
    ).toHaveLength(4)
    const refused = await run(
      ['apply', '-f', '-'],
      stream(inNamespace('priv-d', 'psa-label', privilegedSpec('c'))),
    )
    expect(refused.stderr).toContain(
      'pods "priv-d" is forbidden: violates PodSecurity "baseline:latest"',
    )
    // Relaxing the level checks nothing.
    const relaxed = await ok([
      'label',
      'namespace',
      'psa-label',
      'pod-security.kubernetes.io/enforce=privileged',
      '--overwrite',
    ])
    expect(warnings(relaxed.stderr)).toEqual([])
  })

  it('refuses a label value that names no level or version, as upstream', async () => {
    await namespace('psa-bad')
    const bad = await run([
      'label',
      'namespace',
      'psa-bad',
      'pod-security.kubernetes.io/enforce=strict',
    ])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain(
      'The Namespace "psa-bad" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    )
    const version = await run(
      ['create', '-f', '-'],
      stream({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name: 'psa-bad-version',
          labels: { 'pod-security.kubernetes.io/enforce-version': '1.30' },
        },
      }),
    )
    expect(version.stderr).toContain(
      'metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "1.30": must be "latest" or "v1.x"',
    )
    expect((await run(['get', 'namespace', 'psa-bad-version'])).code).not.toBe(0)
  })
})

describe('a process node, where every container is a host process', () => {
  let agent: AgentProcess | undefined

  beforeAll(async () => {
    agent = startAgent(server.kubeconfig, ['--name', 'laptop', '--runtime', 'process'])
    await waitFor(
      async () => {
        const node = await kubectlJson(['get', 'node', 'laptop', '-o', 'json'], {
          kubeconfig: server.kubeconfig,
        }).catch(() => undefined)
        return node?.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True')
      },
      { what: 'the process node Ready', timeoutMs: 30_000 },
    )
  })

  afterAll(async () => {
    await agent?.stop()
  })

  const sleeper = (namespace: string) =>
    inNamespace('sleeper', namespace, {
      containers: [{ name: 'c', image: 'busybox', command: ['sleep', '60'] }],
    })

  it('gets no pod of a namespace that enforces baseline, and the pod says why', async () => {
    await namespace('psa-node', { 'pod-security.kubernetes.io/enforce': 'baseline' })
    await ok(['apply', '-f', '-'], stream(sleeper('psa-node')))
    const message = await waitFor(
      async () => {
        const p = await kubectlJson(['get', 'pod', 'sleeper', '-n', 'psa-node', '-o', 'json'], {
          kubeconfig: server.kubeconfig,
        })
        return p.status?.conditions?.find(
          (c: any) => c.type === 'PodScheduled' && c.reason === 'Unschedulable',
        )?.message
      },
      { what: 'sleeper Unschedulable', timeoutMs: 40_000 },
    )
    expect(message).toBe(
      `0/1 nodes are available: 1 node(s) run containers as host processes, which can't meet the namespace's PodSecurity enforce level "baseline:latest". preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.`,
    )
  })

  it('refuses a pod of that namespace created with spec.nodeName naming the process node, and stores nothing', async () => {
    const pinned = inNamespace('pinned', 'psa-node', {
      nodeName: 'laptop',
      containers: [{ name: 'c', image: 'busybox', command: ['sleep', '60'] }],
    })
    const refused = await run(['apply', '-f', '-'], stream(pinned))
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain(
      `Error from server (Forbidden): error when creating "STDIN": pods "pinned" is forbidden: node "laptop" runs containers as host processes, which can't meet the namespace's PodSecurity enforce level "baseline:latest"`,
    )
    expect((await run(['get', 'pod', 'pinned', '-n', 'psa-node'])).stderr).toContain(
      'pods "pinned" not found',
    )
  })

  it('runs the same pod for a privileged namespace, and the waiting one once its namespace is relaxed', async () => {
    await namespace('psa-node-open')
    await ok(['apply', '-f', '-'], stream(sleeper('psa-node-open')))
    const nodeOf = (ns: string) => async () =>
      (
        await kubectlJson(['get', 'pod', 'sleeper', '-n', ns, '-o', 'json'], {
          kubeconfig: server.kubeconfig,
        })
      ).spec.nodeName
    expect(
      await waitFor(nodeOf('psa-node-open'), { what: 'sleeper bound', timeoutMs: 40_000 }),
    ).toBe('laptop')
    await ok([
      'label',
      'namespace',
      'psa-node',
      'pod-security.kubernetes.io/enforce=privileged',
      '--overwrite',
    ])
    expect(
      await waitFor(nodeOf('psa-node'), { what: 'the waiting sleeper bound', timeoutMs: 40_000 }),
    ).toBe('laptop')
  })
})

describe("cluster defaults and exemptions from the launcher's variables", () => {
  let strict: TestServer
  const k = kubectlOn(() => strict.kubeconfig)

  beforeAll(async () => {
    strict = await startServer({
      env: {
        EDGEPLANE_POD_SECURITY_ENFORCE: 'baseline',
        EDGEPLANE_POD_SECURITY_WARN: 'restricted',
        EDGEPLANE_POD_SECURITY_EXEMPT_NAMESPACES: 'kube-system',
      },
    })
  })

  afterAll(async () => {
    await strict?.dispose()
  })

  it('holds every unlabelled namespace to the default, but not an exempt one', async () => {
    const refused = await k.run(
      ['apply', '-f', '-'],
      stream(inNamespace('priv', 'default', privilegedSpec('priv'))),
    )
    expect(refused.stderr).toContain(
      'pods "priv" is forbidden: violates PodSecurity "baseline:latest": privileged',
    )
    const exempt = await k.ok(
      ['apply', '-f', '-'],
      stream(inNamespace('priv', 'kube-system', privilegedSpec('priv'))),
    )
    expect(exempt.stdout).toContain('pod/priv created')
    expect(warnings(exempt.stderr)).toEqual([])
    const labelled = await k.ok([
      'label',
      'namespace',
      'kube-system',
      'pod-security.kubernetes.io/enforce=restricted',
    ])
    expect(warnings(labelled.stderr)).toEqual([
      'namespace "kube-system" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored',
    ])
  })

  it('refuses to start with a setting it cannot read', async () => {
    await expect(
      startServer({ env: { EDGEPLANE_POD_SECURITY_ENFORCE: 'strict' }, readyTimeoutMs: 15_000 }),
    ).rejects.toThrow(
      /EDGEPLANE_POD_SECURITY_ENFORCE: level "strict" must be one of privileged, baseline, restricted/,
    )
  })
})
