import { describe, expect, it } from 'vitest'
import { api } from './helpers'

const base = '/api/v1/namespaces/default/services'

function service(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { selector: { app: name }, ports: [{ port: 80 }], ...spec },
  }
}

describe('Service address allocation through the API', () => {
  it('gives every service a distinct IP from the range, kept across updates', async () => {
    const ips = new Set<string>()
    for (const name of ['ip-a', 'ip-b', 'ip-c']) {
      const res = await api('POST', base, service(name))
      expect(res.status).toBe(201)
      expect(res.json.spec.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\./)
      expect(res.json.spec).toMatchObject({
        clusterIPs: [res.json.spec.clusterIP],
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
      })
      ips.add(res.json.spec.clusterIP)
    }
    expect(ips.size).toBe(3)
    const stored = await api('GET', `${base}/ip-a`)
    const { clusterIP: _ip, clusterIPs: _ips, ...rest } = stored.json.spec
    const put = await api('PUT', `${base}/ip-a`, {
      ...stored.json,
      spec: { ...rest, ports: [{ port: 81 }] },
    })
    expect(put.status).toBe(200)
    expect(put.json.spec.clusterIP).toBe(stored.json.spec.clusterIP)
  })

  it('honours a requested IP once, then answers 422', async () => {
    const first = await api('POST', base, service('want-1', { clusterIP: '10.96.0.42' }))
    expect(first.status).toBe(201)
    expect(first.json.spec.clusterIP).toBe('10.96.0.42')
    const second = await api('POST', base, service('want-2', { clusterIP: '10.96.0.42' }))
    expect(second.status).toBe(422)
    expect(second.json.message).toContain('provided IP is already allocated')
    // Deleting the holder releases the address.
    expect((await api('DELETE', `${base}/want-1`)).status).toBe(200)
    expect((await api('POST', base, service('want-2', { clusterIP: '10.96.0.42' }))).status).toBe(
      201,
    )
  })

  it('leaves headless services without an IP', async () => {
    const res = await api('POST', base, service('headless', { clusterIP: 'None' }))
    expect(res.status).toBe(201)
    expect(res.json.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'] })
  })

  it('allocates node ports in range and rejects taken ones', async () => {
    const res = await api('POST', base, service('np-a', { type: 'NodePort' }))
    expect(res.status).toBe(201)
    const nodePort = res.json.spec.ports[0].nodePort
    expect(nodePort).toBeGreaterThanOrEqual(30000)
    expect(nodePort).toBeLessThanOrEqual(32767)
    const clash = await api(
      'POST',
      base,
      service('np-b', { type: 'NodePort', ports: [{ port: 80, nodePort }] }),
    )
    expect(clash.status).toBe(422)
    expect(clash.json.message).toContain(
      `spec.ports[0].nodePort: Invalid value: ${nodePort}: provided port is already allocated`,
    )
  })
})
