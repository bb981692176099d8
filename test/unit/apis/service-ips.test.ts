import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import { formatCause } from '../../../src/apimachinery/field-errors'
import {
  allocateServiceAddresses,
  parseCidr,
  pickClusterIP,
  staticBandSize,
} from '../../../src/apis/service-ips'

function svc(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: {
      type: 'ClusterIP',
      selector: { app: name },
      ports: [{ port: 80, protocol: 'TCP' }],
      ...spec,
    },
  }
}

const specOf = (o: KubeObject) => o.spec as Record<string, any>

describe('parseCidr', () => {
  it.each([
    ['10.96.0.0/12', { base: 0x0a600000, size: 2 ** 20, prefix: 12, text: '10.96.0.0/12' }],
    ['10.96.5.7/24', { base: 0x0a600500, size: 256, prefix: 24, text: '10.96.5.0/24' }],
    ['10.96.0.0', undefined],
    ['10.960.0.0/12', undefined],
  ])('%s', (s, want) => {
    expect(parseCidr(s)).toEqual(want)
  })
})

describe('pickClusterIP', () => {
  it('draws from above the static band first', () => {
    expect(staticBandSize(2 ** 20 - 2)).toBe(256)
    expect(pickClusterIP(parseCidr('10.96.0.0/12')!, new Set(), () => 0)).toBe('10.96.1.1')
  })
  it('skips addresses in use and falls back to the static band', () => {
    const cidr = parseCidr('10.0.0.0/28')!
    // 14 usable, static band 0 below 16 addresses: every address is dynamic.
    const used = new Set(Array.from({ length: 13 }, (_, i) => `10.0.0.${i + 1}`))
    expect(pickClusterIP(cidr, used, () => 0)).toBe('10.0.0.14')
    used.add('10.0.0.14')
    expect(pickClusterIP(cidr, used, () => 0)).toBeUndefined()
  })
})

describe('allocateServiceAddresses', () => {
  const existing = [
    svc('a', { clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] }),
    svc('np', {
      type: 'NodePort',
      clusterIP: '10.96.0.11',
      ports: [{ port: 80, nodePort: 30080 }],
    }),
  ]
  const cases: {
    name: string
    spec: Record<string, unknown>
    want?: Record<string, unknown>
    error?: string
  }[] = [
    {
      name: 'allocates from the range',
      spec: {},
      want: {
        clusterIP: '10.96.1.1',
        clusterIPs: ['10.96.1.1'],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
      },
    },
    {
      name: 'honours a free requested IP',
      spec: { clusterIP: '10.96.0.20' },
      want: { clusterIP: '10.96.0.20', clusterIPs: ['10.96.0.20'] },
    },
    {
      name: 'rejects a requested IP in use',
      spec: { clusterIP: '10.96.0.10' },
      error:
        'spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated',
    },
    {
      name: 'rejects an IP out of range',
      spec: { clusterIP: '192.168.0.1' },
      error:
        'spec.clusterIPs: Invalid value: []string{"192.168.0.1"}: failed to allocate IP 192.168.0.1: the provided IP (192.168.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    },
    {
      name: 'headless',
      spec: { clusterIP: 'None' },
      want: {
        clusterIP: 'None',
        clusterIPs: ['None'],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
      },
    },
    {
      name: 'headless without selector',
      spec: { clusterIP: 'None', selector: undefined },
      want: { clusterIPs: ['None'], ipFamilyPolicy: 'RequireDualStack' },
    },
    {
      name: 'ExternalName gets nothing',
      spec: { type: 'ExternalName', externalName: 'x.example' },
      want: { type: 'ExternalName' },
    },
    {
      name: 'NodePort allocation',
      spec: { type: 'NodePort' },
      want: { ports: [{ port: 80, protocol: 'TCP', nodePort: 30000 }] },
    },
    {
      name: 'requested NodePort in use',
      spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] },
      error: 'spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
    },
    {
      name: 'NodePort out of range',
      spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] },
      error:
        'spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
    },
  ]
  it.each(cases)('$name', ({ spec, want, error }) => {
    const o = svc('new', spec)
    const causes = allocateServiceAddresses(o, undefined, existing, { random: () => 0 })
    if (error) expect(causes.map(formatCause)).toEqual([error])
    else {
      expect(causes).toEqual([])
      expect(specOf(o)).toMatchObject(want!)
      if (specOf(o).type === 'ExternalName')
        expect(specOf(o).clusterIP ?? specOf(o).ipFamilies).toBeUndefined()
    }
  })

  it('keeps the allocation on an update that omits it', () => {
    const old = svc('a', {
      type: 'NodePort',
      clusterIP: '10.96.3.3',
      clusterIPs: ['10.96.3.3'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [{ port: 80, nodePort: 31000 }],
    })
    const next = svc('a', { type: 'NodePort', ports: [{ port: 80 }] })
    expect(allocateServiceAddresses(next, old, [old], { random: () => 0 })).toEqual([])
    expect(specOf(next)).toMatchObject({
      clusterIP: '10.96.3.3',
      clusterIPs: ['10.96.3.3'],
      ports: [{ port: 80, nodePort: 31000 }],
    })
  })

  it('refuses to change the cluster IP', () => {
    const old = svc('a', { clusterIP: '10.96.3.3', clusterIPs: ['10.96.3.3'] })
    expect(
      allocateServiceAddresses(svc('a', { clusterIP: '10.96.3.4' }), old, [old]).map(formatCause),
    ).toEqual(['spec.clusterIPs[0]: Invalid value: "10.96.3.4": may not change once set'])
  })
})
