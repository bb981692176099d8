import { describe, expect, it } from 'vitest'
import { passedHeaders } from '../../../src/launcher/ingress'
import { peerAddress } from '../../../src/launcher/peer-address'

describe('the local ingress listener', () => {
  it("drops what a client says of its own address and says the socket's peer instead", () => {
    const raw = [
      'Host',
      'shop.example',
      'CF-Connecting-IP',
      '6.6.6.6',
      'X-Forwarded-For',
      '6.6.6.6, 7.7.7.7',
      'X-Real-IP',
      '6.6.6.6',
      'Forwarded',
      'for=6.6.6.6',
      'True-Client-IP',
      '6.6.6.6',
      'X-Edgeplane-Ingress',
      'guess',
      'Cookie',
      'a=b',
    ]
    expect(passedHeaders(raw, '127.0.0.1', 'secret')).toEqual([
      'Host',
      'shop.example',
      'Cookie',
      'a=b',
      'cf-connecting-ip',
      '127.0.0.1',
      'x-edgeplane-ingress',
      'secret',
    ])
  })

  it('names an IPv4 peer of a dual-stack socket without its mapped prefix', () => {
    expect(peerAddress('::ffff:127.0.0.1')).toBe('127.0.0.1')
    expect(peerAddress('::1')).toBe('::1')
    expect(peerAddress(undefined)).toBe('')
    expect(passedHeaders([], '', 's')).toEqual(['x-edgeplane-ingress', 's'])
  })
})
