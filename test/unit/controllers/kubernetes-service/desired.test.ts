import { describe, expect, it } from 'vitest'
import { apiServiceIp } from '../../../../src/controllers/kubernetes-service/desired'
import { parseApiEndpoint } from '../../../../src/settings/api-endpoint'

describe('where default/kubernetes points', () => {
  it('takes the first address of the service range, as kube-apiserver reserves it', () => {
    expect(apiServiceIp('10.96.0.0/12')).toBe('10.96.0.1')
    expect(apiServiceIp('172.20.8.0/22')).toBe('172.20.8.1')
    expect(apiServiceIp('10.0.0.0/31')).toBeUndefined()
    expect(apiServiceIp('not-a-cidr')).toBeUndefined()
  })

  it('reads the API endpoint as ip:port and refuses what Endpoints cannot list', () => {
    expect(parseApiEndpoint('127.0.0.1:8787')).toEqual({ ip: '127.0.0.1', port: 8787 })
    expect(parseApiEndpoint(' 10.0.0.5:443 ')).toEqual({ ip: '10.0.0.5', port: 443 })
    for (const bad of [
      undefined,
      '',
      'api.example.com:443',
      '127.0.0.1',
      '127.0.0.1:0',
      '127.0.0.1:70000',
      '300.0.0.1:443',
    ])
      expect(parseApiEndpoint(bad)).toBeUndefined()
  })
})
