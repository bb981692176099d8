import { describe, expect, it } from 'vitest'
import { parseArgs, parseLabels, UsageError } from '../../../src/agent/args'
import { capacityFor, defaultNodeName, nodeNames } from '../../../src/agent/cli'
import { goArch, simNodeIP } from '../../../src/agent/host-info'
import { resolveKubeconfig, KubeconfigError } from '../../../src/agent/kubeconfig'
import { leaseInterval, LeaseIntervalError, leaseObject } from '../../../src/agent/lease'
import {
  KUBELET_VERSION,
  labelPatch,
  nodeLabels,
  nodeObject,
  nodeStatus,
  NODE_STATUS_REPORT_MS,
  shouldPostNodeStatus,
  type NodeIdentity,
} from '../../../src/agent/node-status'
import { formatTime, microTime } from '../../../src/apimachinery/meta-time'

const NOW = Date.parse('2026-11-22T12:00:00Z')

const identity: NodeIdentity = {
  name: 'node-a',
  labels: { zone: 'z1' },
  capacity: { cpu: '4', memory: '16Gi', pods: '110' },
  internalIP: '10.1.2.3',
  hostname: 'node-a',
  instanceType: 'edgeplane-sim',
  info: {
    machineID: 'm',
    systemUUID: 's',
    bootID: 'b',
    kernelVersion: 'k',
    osImage: 'o',
    containerRuntimeVersion: 'sim://0.1.0',
    operatingSystem: 'linux',
    architecture: 'amd64',
  },
}

describe('node object', () => {
  it('carries kubelet labels, capacity, addresses, nodeInfo and four conditions', () => {
    const node = nodeObject(identity, NOW)
    expect(node.metadata.labels).toEqual({
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'beta.kubernetes.io/instance-type': 'edgeplane-sim',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'node-a',
      'kubernetes.io/os': 'linux',
      'node.kubernetes.io/instance-type': 'edgeplane-sim',
      zone: 'z1',
    })
    const status = node.status as ReturnType<typeof nodeStatus>
    expect(status.capacity).toEqual(identity.capacity)
    expect(status.allocatable).toEqual(identity.capacity)
    expect(status.addresses).toEqual([
      { type: 'InternalIP', address: '10.1.2.3' },
      { type: 'Hostname', address: 'node-a' },
    ])
    expect(status.nodeInfo).toMatchObject({
      kubeletVersion: KUBELET_VERSION,
      containerRuntimeVersion: 'sim://0.1.0',
      architecture: 'amd64',
      operatingSystem: 'linux',
    })
    expect(status.conditions!.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID'],
      ['Ready', 'True', 'KubeletReady'],
    ])
  })

  it('lets configured labels override the defaults', () => {
    expect(
      nodeLabels({ ...identity, labels: { 'kubernetes.io/hostname': 'alias' } })[
        'kubernetes.io/hostname'
      ],
    ).toBe('alias')
  })

  it('keeps transition times and refreshes heartbeats; Ready after Unknown transitions again', () => {
    const first = nodeStatus(identity, NOW)
    const later = nodeStatus(identity, NOW + 60_000, first)
    const ready = later.conditions!.find((c) => c.type === 'Ready')!
    expect(ready.lastTransitionTime).toBe(formatTime(NOW))
    expect(ready.lastHeartbeatTime).toBe(formatTime(NOW + 60_000))
    const unknown = {
      ...first,
      conditions: first.conditions!.map((c) =>
        c.type === 'Ready' ? { ...c, status: 'Unknown' as const, reason: 'NodeStatusUnknown' } : c,
      ),
    }
    const back = nodeStatus(identity, NOW + 120_000, unknown).conditions!.find(
      (c) => c.type === 'Ready',
    )!
    expect(back).toMatchObject({
      status: 'True',
      reason: 'KubeletReady',
      lastTransitionTime: formatTime(NOW + 120_000),
    })
  })

  it('carries conditions it does not own', () => {
    const extra = { type: 'NetworkUnavailable', status: 'False' as const, reason: 'RouteCreated' }
    const status = nodeStatus(identity, NOW, { conditions: [extra] })
    expect(status.conditions).toContainEqual(extra)
  })

  const posts: {
    name: string
    current: () => ReturnType<typeof nodeStatus> | undefined
    lastPost: number | undefined
    now: number
    want: boolean
  }[] = [
    { name: 'never posted', current: () => undefined, lastPost: undefined, now: NOW, want: true },
    {
      name: 'only heartbeats differ',
      current: () => nodeStatus(identity, NOW),
      lastPost: NOW,
      now: NOW + 10_000,
      want: false,
    },
    {
      name: 'five minutes since the last post',
      current: () => nodeStatus(identity, NOW),
      lastPost: NOW,
      now: NOW + NODE_STATUS_REPORT_MS,
      want: true,
    },
    {
      name: 'capacity changed',
      current: () =>
        nodeStatus({ ...identity, capacity: { ...identity.capacity, pods: '10' } }, NOW),
      lastPost: NOW,
      now: NOW + 10_000,
      want: true,
    },
    {
      name: 'someone marked it Unknown',
      current: () => {
        const s = nodeStatus(identity, NOW)
        return {
          ...s,
          conditions: s.conditions!.map((c) =>
            c.type === 'Ready' ? { ...c, status: 'Unknown' as const } : c,
          ),
        }
      },
      lastPost: NOW,
      now: NOW + 10_000,
      want: true,
    },
  ]
  for (const c of posts) {
    it(`posts status: ${c.name} → ${c.want}`, () => {
      const current = c.current()
      expect(
        shouldPostNodeStatus(current, nodeStatus(identity, c.now, current), c.lastPost, c.now),
      ).toBe(c.want)
    })
  }

  it('patches only missing or different labels', () => {
    expect(labelPatch({ a: '1', other: 'x' }, { a: '1', b: '2' })).toEqual({ b: '2' })
    expect(labelPatch({ a: '1' }, { a: '1' })).toBeUndefined()
  })
})

describe('lease', () => {
  it('formats MicroTime with six fractional digits', () => {
    expect(microTime(Date.parse('2026-11-22T12:00:00.123Z'))).toBe('2026-11-22T12:00:00.123000Z')
    expect(microTime(NOW)).toBe('2026-11-22T12:00:00.000000Z')
  })

  it('is held by the node for 40 s and owned by the Node object', () => {
    expect(leaseObject('node-a', 'uid-1', NOW)).toEqual({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: 'node-a',
        namespace: 'kube-node-lease',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-a', uid: 'uid-1' }],
      },
      spec: {
        holderIdentity: 'node-a',
        leaseDurationSeconds: 40,
        renewTime: '2026-11-22T12:00:00.000000Z',
      },
    })
  })
})

describe('kubeconfig', () => {
  const ca = '-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n'
  const text = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: edgeplane',
    '  cluster:',
    '    server: "https://127.0.0.1:8787/"',
    `    certificate-authority-data: ${Buffer.from(ca).toString('base64')}`,
    '- name: other',
    '  cluster:',
    '    server: https://other:6443',
    '    insecure-skip-tls-verify: true',
    'users:',
    '- name: admin',
    '  user:',
    '    token: "t0k3n"',
    'contexts:',
    '- name: edgeplane',
    '  context: {cluster: edgeplane, user: admin, namespace: default}',
    '- name: other',
    '  context: {cluster: other, user: admin}',
    'current-context: edgeplane',
  ].join('\n')

  it('resolves the current context: server, CA and token', () => {
    expect(resolveKubeconfig(text, '/tmp')).toEqual({
      server: 'https://127.0.0.1:8787',
      ca,
      token: 't0k3n',
      namespace: 'default',
    })
  })

  it('resolves a named context', () => {
    expect(resolveKubeconfig(text, '/tmp', 'other')).toEqual({
      server: 'https://other:6443',
      insecureSkipTlsVerify: true,
      token: 't0k3n',
    })
  })

  it('explains what is missing', () => {
    expect(() => resolveKubeconfig(text, '/tmp', 'nope')).toThrow(
      new KubeconfigError('kubeconfig has no context named "nope"'),
    )
    expect(() => resolveKubeconfig('kind: Config', '/tmp')).toThrow(/no current-context/)
  })
})

describe('command line', () => {
  it('applies defaults', () => {
    const args = parseArgs(['--kubeconfig', '/k'], {})
    expect(args).toMatchObject({
      kubeconfig: '/k',
      runtime: 'process',
      nodes: 1,
      simStartDelayMs: 200,
      labels: {},
      verbose: false,
    })
    expect(args.leaseSeconds).toBeUndefined()
    expect(args.name).toBe(defaultNodeName())
  })

  it('renews the lease at least every quarter of the published grace period, and refuses a slower --lease-seconds', () => {
    expect(leaseInterval(undefined, undefined)).toBe(10)
    expect(leaseInterval(40, undefined)).toBe(10)
    expect(leaseInterval(8, undefined)).toBe(2)
    expect(leaseInterval(120, undefined)).toBe(10)
    expect(leaseInterval(8, 2)).toBe(2)
    expect(leaseInterval(undefined, 30)).toBe(30)
    expect(() => leaseInterval(8, 3)).toThrow(LeaseIntervalError)
    expect(() => leaseInterval(8, 10)).toThrow(
      '--lease-seconds 10 is too slow for the control plane: it marks a node Unknown after 8s without a heartbeat, so the lease must be renewed at least every 2s',
    )
  })

  it('reads every flag, in both spellings', () => {
    const args = parseArgs(
      [
        '--kubeconfig=/k',
        '--state-dir',
        '/s',
        '--name',
        'sim',
        '--runtime=sim',
        '--cpu',
        '8',
        '--memory=32Gi',
        '--pods',
        '50',
        '--labels',
        'a=1,example.com/b=two',
        '--nodes',
        '3',
        '--lease-seconds',
        '2',
        '--sim-start-delay-ms',
        '0',
        '-v',
      ],
      {},
    )
    expect(args).toEqual({
      kubeconfig: '/k',
      stateDir: '/s',
      name: 'sim',
      runtime: 'sim',
      cpu: '8',
      memory: '32Gi',
      pods: 50,
      labels: { a: '1', 'example.com/b': 'two' },
      nodes: 3,
      leaseSeconds: 2,
      simStartDelayMs: 0,
      verbose: true,
      help: false,
    })
    expect(nodeNames(args)).toEqual(['sim-0', 'sim-1', 'sim-2'])
    expect(capacityFor(args)).toEqual({ cpu: '8', memory: '32Gi', pods: '50' })
  })

  it('joins with --server, --token and --ca-cert, or a kubeconfig, not both', () => {
    const args = parseArgs(
      [
        '--server',
        'https://cp.example:6443/',
        '--token',
        'abcdef.0123456789abcdef',
        '--ca-cert',
        '/ca.pem',
      ],
      { EDGEPLANE_AGENT_STATE: '/st' },
    )
    expect(args).toMatchObject({
      server: 'https://cp.example:6443',
      token: 'abcdef.0123456789abcdef',
      caCert: '/ca.pem',
      stateDir: '/st',
    })
    expect(() => parseArgs(['--server', 'https://a', '--kubeconfig', '/k'], {})).toThrow(
      '--server and --kubeconfig exclude each other',
    )
    expect(() => parseArgs(['--token', 'abcdef.0123456789abcdef'], {})).toThrow(
      '--token goes with --server',
    )
    expect(() => parseArgs(['--server', 'cp.example'], {})).toThrow(
      '--server must be an http(s) URL',
    )
  })

  it('reads the docker runtime flags', () => {
    const args = parseArgs(
      [
        '--kubeconfig',
        '/k',
        '--runtime',
        'docker',
        '--container-socket',
        '/run/podman/podman.sock',
        '--pod-infra-image',
        'localhost/pause:1',
      ],
      {},
    )
    expect(args).toMatchObject({
      runtime: 'docker',
      containerSocket: '/run/podman/podman.sock',
      podInfraImage: 'localhost/pause:1',
    })
  })

  it('takes the sim start delay from the environment', () => {
    expect(
      parseArgs(['--kubeconfig', '/k'], { EDGEPLANE_SIM_START_DELAY_MS: '25' }).simStartDelayMs,
    ).toBe(25)
  })

  const bad: [string[], RegExp][] = [
    [['--runtime', 'containerd'], /--runtime must be "process", "sim" or "docker"/],
    [
      ['--runtime', 'process', '--container-socket', '/x.sock'],
      /--container-socket is for the docker runtime only/,
    ],
    [['--nodes', '3'], /--nodes is for the sim runtime only/],
    [['--name', 'Bad_Name'], /not a valid node name/],
    [['--pods', '0'], /--pods must be a whole number of at least 1/],
    [['--cpu', 'lots'], /--cpu "lots" is not a quantity/],
    [['--labels', 'novalue'], /not key=value/],
    [['--bogus', 'x'], /unknown flag --bogus/],
    [['--name'], /--name needs a value/],
  ]
  for (const [argv, message] of bad) {
    it(`rejects ${argv.join(' ')}`, () => {
      expect(() => parseArgs(['--kubeconfig', '/k', ...argv], {})).toThrow(UsageError)
      expect(() => parseArgs(['--kubeconfig', '/k', ...argv], {})).toThrow(message)
    })
  }

  it('defaults sim capacity to 4 cpu, 16Gi, 110 pods', () => {
    expect(capacityFor({ runtime: 'sim' })).toEqual({ cpu: '4', memory: '16Gi', pods: '110' })
    expect(
      capacityFor({ runtime: 'process' }, () => ({ cpu: '2', memory: '1000Ki', pods: '110' })),
    ).toEqual({ cpu: '2', memory: '1000Ki', pods: '110' })
  })

  it('parses labels strictly', () => {
    expect(parseLabels(' a=1 , b= ')).toEqual({ a: '1', b: '' })
    expect(() => parseLabels('a=has space')).toThrow(/not a valid label value/)
  })

  it('names nodes after the host in lower case', () => {
    expect(defaultNodeName('My_Host.Example')).toBe('my-host.example')
  })
})

describe('host facts', () => {
  it('maps Node architectures to Kubernetes ones', () => {
    expect(['x64', 'arm64', 'ia32'].map(goArch)).toEqual(['amd64', 'arm64', '386'])
  })

  it('gives simulated nodes stable addresses outside the pod range', () => {
    const ips = Array.from({ length: 200 }, (_, i) => simNodeIP(`sim-${i}`))
    expect(simNodeIP('sim-1')).toBe(ips[1])
    for (const ip of ips) expect(ip).toMatch(/^10\.(?!244\.)\d+\.\d+\.\d+$/)
  })
})
