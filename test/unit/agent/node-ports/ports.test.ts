import { createServer, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { NodePortListeners } from '../../../../src/agent/node-ports/listeners'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { candidates, nodePortTable, openPorts } from '../../../../src/agent/node-ports/table'
import { bindAddresses, parseNodePortAddresses } from '../../../../src/agent/node-ports/addresses'
import { dialTarget } from '../../../../durable-objects/node-gateway/dial-target'
import { parseArgs, UsageError } from '../../../../src/agent/args'

const svc = (name: string, spec: Record<string, unknown>, namespace = 'default'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace },
  spec,
})

const eps = (
  name: string,
  addresses: Array<{ node: string; pod: string; ns?: string }>,
  ports: Array<{ name?: string; port: number }>,
  namespace = 'default',
): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name, namespace },
    subsets: [
      {
        addresses: addresses.map((a) => ({
          ip: '10.0.0.1',
          nodeName: a.node,
          targetRef: {
            kind: 'Pod',
            name: a.pod,
            namespace: a.ns ?? namespace,
            uid: `uid-${a.pod}`,
          },
        })),
        ports,
      },
    ],
  }) as KubeObject

const byKey = (...objects: KubeObject[]) =>
  new Map(objects.map((o) => [`${o.metadata.namespace}/${o.metadata.name}`, o]))

describe('nodePortTable', () => {
  it('maps each TCP node port of NodePort and LoadBalancer Services to the ready endpoints of its service port', () => {
    const services = [
      svc('web', {
        type: 'NodePort',
        ports: [
          { name: 'http', port: 80, nodePort: 30080 },
          { name: 'dns', port: 53, protocol: 'UDP', nodePort: 30053 },
          { name: 'admin', port: 81, nodePort: 30081 },
        ],
      }),
      svc('lb', {
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        ports: [{ port: 443, nodePort: 30443 }],
      }),
      svc('internal', { type: 'ClusterIP', ports: [{ port: 80, nodePort: 30999 }] }),
    ]
    const table = nodePortTable(
      services,
      byKey(
        eps(
          'web',
          [
            { node: 'a', pod: 'w1' },
            { node: 'b', pod: 'w2' },
          ],
          [
            { name: 'http', port: 8080 },
            { name: 'admin', port: 9090 },
          ],
        ),
        eps('lb', [{ node: 'b', pod: 'l1' }], [{ port: 8443 }]),
      ),
    )
    expect([...table.keys()].sort()).toEqual([30080, 30081, 30443])
    expect(table.get(30080)!.endpoints).toEqual([
      { node: 'a', podUid: 'uid-w1', namespace: 'default', pod: 'w1', port: 8080 },
      { node: 'b', podUid: 'uid-w2', namespace: 'default', pod: 'w2', port: 8080 },
    ])
    expect(table.get(30081)!.endpoints.map((t) => t.port)).toEqual([9090, 9090])
    expect(table.get(30443)).toMatchObject({
      service: 'lb',
      local: true,
      endpoints: [{ node: 'b', pod: 'l1', port: 8443 }],
    })
  })

  it('leaves out endpoints that name a pod of another namespace', () => {
    const table = nodePortTable(
      [svc('web', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] })],
      byKey(
        eps(
          'web',
          [
            { node: 'a', pod: 'w1' },
            { node: 'a', pod: 'x', ns: 'kube-system' },
          ],
          [{ port: 8080 }],
        ),
      ),
    )
    expect(table.get(30080)!.endpoints.map((t) => t.pod)).toEqual(['w1'])
  })
})

describe('candidates and openPorts', () => {
  const table = nodePortTable(
    [
      svc('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 30001 }] }),
      svc('l', {
        type: 'NodePort',
        externalTrafficPolicy: 'Local',
        ports: [{ port: 80, nodePort: 30002 }],
      }),
      svc('none', { type: 'NodePort', ports: [{ port: 80, nodePort: 30003 }] }),
    ],
    byKey(
      eps(
        'c',
        [
          { node: 'a', pod: 'p1' },
          { node: 'b', pod: 'p2' },
          { node: 'b', pod: 'p3' },
        ],
        [{ port: 8080 }],
      ),
      eps(
        'l',
        [
          { node: 'a', pod: 'p1' },
          { node: 'b', pod: 'p2' },
        ],
        [{ port: 8080 }],
      ),
    ),
  )

  it('spreads over every endpoint, starting where the draw says', () => {
    const entry = table.get(30001)!
    expect(candidates(entry, 'b', 0).map((t) => t.pod)).toEqual(['p1', 'p2', 'p3'])
    expect(candidates(entry, 'b', 1).map((t) => t.pod)).toEqual(['p2', 'p3', 'p1'])
    expect(candidates(entry, 'b', 5).map((t) => t.pod)).toEqual(['p3', 'p1', 'p2'])
    const firsts = new Set(Array.from({ length: 3 }, (_, i) => candidates(entry, 'a', i)[0]!.pod))
    expect(firsts.size).toBe(3)
  })

  it('with externalTrafficPolicy Local, keeps only the endpoints on this node', () => {
    expect(candidates(table.get(30002)!, 'a', 7).map((t) => t.pod)).toEqual(['p1'])
    expect(candidates(table.get(30002)!, 'c', 0)).toEqual([])
  })

  it('opens only the ports that have somewhere to go on this node', () => {
    expect([...openPorts(table, 'a')].sort()).toEqual([30001, 30002])
    expect([...openPorts(table, 'c')]).toEqual([30001])
  })
})

describe('--nodeport-addresses', () => {
  const interfaces = {
    lo: [
      {
        address: '127.0.0.1',
        netmask: '255.0.0.0',
        family: 'IPv4',
        mac: '',
        internal: true,
        cidr: '127.0.0.1/8',
      },
    ],
    eth0: [
      {
        address: '192.168.1.20',
        netmask: '255.255.255.0',
        family: 'IPv4',
        mac: '',
        internal: false,
        cidr: '192.168.1.20/24',
      },
      {
        address: 'fd00::20',
        netmask: 'ffff:ffff:ffff:ffff::',
        family: 'IPv6',
        mac: '',
        internal: false,
        cidr: 'fd00::20/64',
        scopeid: 0,
      },
    ],
  } as unknown as ReturnType<typeof import('node:os').networkInterfaces>

  it('binds plain addresses as given, and the interface addresses inside a CIDR', () => {
    expect(bindAddresses(parseNodePortAddresses('127.0.0.2'), interfaces)).toEqual(['127.0.0.2'])
    expect(bindAddresses(parseNodePortAddresses('192.168.0.0/16, fd00::/8'), interfaces)).toEqual([
      '192.168.1.20',
      'fd00::20',
    ])
    expect(bindAddresses(parseNodePortAddresses('10.0.0.0/8'), interfaces)).toEqual([])
    expect(bindAddresses(undefined, interfaces)).toEqual([undefined])
  })

  it('refuses what is neither an address nor a CIDR', () => {
    expect(() => parseNodePortAddresses('eth0')).toThrow(
      '--nodeport-addresses entry "eth0" is neither an IP address nor a CIDR',
    )
    expect(() => parseNodePortAddresses('10.0.0.0/33')).toThrow('neither')
    expect(() => parseArgs(['--nodeport-addresses', ''])).toThrow(UsageError)
    expect(parseArgs(['--nodeport-addresses', '127.0.0.2,10.0.0.0/8']).nodePortAddresses).toEqual([
      '127.0.0.2',
      '10.0.0.0/8',
    ])
    expect(parseArgs([]).nodePortAddresses).toBeUndefined()
  })
})

describe('dialTarget: what a node may reach on another node', () => {
  const web = svc('web', { type: 'NodePort', ports: [{ name: 'http', port: 80, nodePort: 30080 }] })
  const endpoints = eps(
    'web',
    [
      { node: 'a', pod: 'w1' },
      { node: 'a', pod: 'evil', ns: 'kube-system' },
    ],
    [{ name: 'http', port: 8080 }],
  )
  const dial = {
    op: 'dial' as const,
    id: 0x80000001,
    namespace: 'default',
    service: 'web',
    nodePort: 30080,
    node: 'a',
    pod: 'w1',
  }

  it('allows a ready endpoint of the service port that owns the node port, at the port the Endpoints name', () => {
    expect(dialTarget(web, endpoints, dial)).toEqual({
      node: 'a',
      podUid: 'uid-w1',
      namespace: 'default',
      pod: 'w1',
      port: 8080,
    })
  })

  it('refuses anything else', () => {
    expect(dialTarget(web, endpoints, { ...dial, pod: 'other' })).toBe(
      'pod default/other on node "a" is not a ready endpoint of service default/web node port 30080',
    )
    expect(dialTarget(web, endpoints, { ...dial, node: 'b' })).toContain('is not a ready endpoint')
    expect(dialTarget(web, endpoints, { ...dial, pod: 'evil' })).toContain(
      'is not a ready endpoint',
    )
    expect(dialTarget(web, endpoints, { ...dial, nodePort: 30081 })).toBe(
      'service default/web has no TCP node port 30081',
    )
    expect(
      dialTarget(
        svc('web', { type: 'ClusterIP', ports: [{ name: 'http', port: 80, nodePort: 30080 }] }),
        endpoints,
        dial,
      ),
    ).toBe('service default/web has no TCP node port 30080')
    expect(
      dialTarget(
        svc('web', {
          type: 'NodePort',
          externalTrafficPolicy: 'Local',
          ports: [{ name: 'http', port: 80, nodePort: 30080 }],
        }),
        endpoints,
        dial,
      ),
    ).toContain('externalTrafficPolicy Local')
    expect(dialTarget(web, undefined, dial)).toContain('is not a ready endpoint')
  })
})

describe('NodePortListeners', () => {
  it('reports a port it cannot bind once, keeps the others, and binds it at a later sync once free', async () => {
    const blocker = createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r))
    const taken = (blocker.address() as AddressInfo).port
    const free = createServer()
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r))
    const other = (free.address() as AddressInfo).port
    await new Promise((r) => free.close(r))
    const reports: string[] = []
    const listeners = new NodePortListeners(
      ['127.0.0.1'],
      (_port, socket) => socket.destroy(),
      (port, address, err) =>
        reports.push(`${address}:${port} ${(err as NodeJS.ErrnoException).code}`),
    )
    try {
      const ports = new Set([taken, other])
      listeners.sync(ports)
      await new Promise((r) => setTimeout(r, 100))
      listeners.sync(ports)
      await new Promise((r) => setTimeout(r, 100))
      expect(reports).toEqual([`127.0.0.1:${taken} EADDRINUSE`])
      expect(listeners.listening()).toEqual([other])
      await new Promise((r) => blocker.close(r))
      listeners.sync(ports)
      await new Promise((r) => setTimeout(r, 100))
      expect(listeners.listening()).toEqual([taken, other].sort((a, b) => a - b))
      listeners.sync(new Set([other]))
      expect(listeners.listening()).toEqual([other])
    } finally {
      listeners.close()
      blocker.close()
    }
  })
})
