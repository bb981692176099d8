import { describe, expect, it } from 'vitest'
import { findResource } from '../../../../src/apis/registry'
import { validateUpdate } from '../../../../src/apis/strategy'
import {
  nodeCidrSettings,
  nodeIpamController,
  pickNodeCidr,
  podCidrsOf,
} from '../../../../src/controllers/node-ipam'
import { nodes } from '../../../../src/controllers/resources'
import { MemoryCache } from '../../../fixtures/memory-cache'
import { newNode } from '../../../helpers'

const defaults = nodeCidrSettings(undefined, undefined)

/** Runs every key the controller would visit on a resync, applying what it asks for. */
async function resync(cache: MemoryCache, settings = defaults): Promise<void> {
  const controller = nodeIpamController(settings)
  for (const key of controller.watches.allKeys(cache))
    await cache.applyAll(controller.reconcile(key, cache, 0).actions)
}

const cidrOf = (cache: MemoryCache, name: string) => podCidrsOf(cache.get(nodes, undefined, name)!)

describe('node CIDR settings', () => {
  it('defaults to 10.244.0.0/16 in /24s', async () => {
    expect(defaults.cluster.text).toBe('10.244.0.0/16')
    expect(defaults.maskSize).toBe(24)
  })

  it.each([
    ['10.244.0.0', '24', /CLUSTER_CIDR must be an IPv4 CIDR/],
    ['10.244.0.0/16', '8', /NODE_CIDR_MASK_SIZE must be a prefix length from 16/],
    ['10.244.0.0/16', 'x', /NODE_CIDR_MASK_SIZE/],
    ['10.0.0.0/8', '28', /more than 2\^16 node CIDRs/],
  ])('refuses CLUSTER_CIDR=%s NODE_CIDR_MASK_SIZE=%s', (cidr, mask, message) => {
    expect(() => nodeCidrSettings(cidr, mask)).toThrow(message)
  })

  it('picks the lowest free block', async () => {
    const s = nodeCidrSettings('10.1.0.0/22', '24')
    expect(pickNodeCidr(s, new Set())).toBe('10.1.0.0/24')
    expect(pickNodeCidr(s, new Set(['10.1.0.0/24', '10.1.2.0/24']))).toBe('10.1.1.0/24')
    expect(
      pickNodeCidr(s, new Set(['10.1.0.0/24', '10.1.1.0/24', '10.1.2.0/24', '10.1.3.0/24'])),
    ).toBeUndefined()
  })
})

describe('node IPAM controller', () => {
  it('gives each node a block of its own in spec.podCIDR and spec.podCIDRs, and keeps the ones nodes already hold', async () => {
    const held = newNode('held')
    held.spec = { podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'] }
    const cache = new MemoryCache(held, newNode('a'), newNode('b'))
    await resync(cache)
    expect(cidrOf(cache, 'held')).toEqual(['10.244.0.0/24'])
    expect(new Set([cidrOf(cache, 'a')[0], cidrOf(cache, 'b')[0]])).toEqual(
      new Set(['10.244.1.0/24', '10.244.2.0/24']),
    )
    expect((cache.get(nodes, undefined, 'a')!.spec as { podCIDR: string }).podCIDR).toBe(
      cidrOf(cache, 'a')[0],
    )
  })

  it('reuses the block of a deleted node', async () => {
    const cache = new MemoryCache(newNode('a'), newNode('b'))
    await resync(cache)
    const freed = cidrOf(cache, 'a')[0]
    cache.remove(nodes, undefined, 'a')
    cache.add(newNode('c'))
    await resync(cache)
    expect(cidrOf(cache, 'c')).toEqual([freed])
  })

  it('records CIDRNotAvailable on a node when the cluster CIDR is used up, and assigns it once a block is free', async () => {
    const settings = nodeCidrSettings('10.9.0.0/24', '25')
    const cache = new MemoryCache(newNode('a'), newNode('b'), newNode('c'))
    await resync(cache, settings)
    const without = ['a', 'b', 'c'].filter((n) => cidrOf(cache, n).length === 0)
    expect(without).toHaveLength(1)
    expect(cache.events).toEqual([
      {
        involved: `/${without[0]}`,
        kind: 'Node',
        eventType: 'Normal',
        reason: 'CIDRNotAvailable',
        message: `Node ${without[0]} status is now: CIDRNotAvailable`,
      },
    ])

    const other = ['a', 'b', 'c'].find((n) => n !== without[0])!
    const freed = cidrOf(cache, other)[0]
    cache.remove(nodes, undefined, other)
    const controller = nodeIpamController(settings)
    expect(controller.watches.keysFor(nodes, newNode(other), cache)).toEqual([without[0]])
    await resync(cache, settings)
    expect(cidrOf(cache, without[0]!)).toEqual([freed])
  })

  it('wakes on nodes coming and going, not on heartbeats', async () => {
    const controller = nodeIpamController(defaults)
    const node = newNode('a')
    const beat = { ...node, status: { conditions: [] } }
    expect(controller.watches.wakesOn!(nodes, 'ADDED', node)).toBe(true)
    expect(controller.watches.wakesOn!(nodes, 'MODIFIED', beat, node)).toBe(false)
    expect(
      controller.watches.wakesOn!(
        nodes,
        'MODIFIED',
        { ...node, spec: { podCIDR: '10.244.3.0/24' } },
        node,
      ),
    ).toBe(true)
    expect(controller.watches.wakesOn!(nodes, 'DELETED', node)).toBe(true)
  })
})

describe('a Node update', () => {
  const def = findResource('', 'v1', 'nodes')!
  const node = (spec: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'a' },
    spec,
  })

  it('may set the pod CIDR once, and never change it', async () => {
    expect(
      validateUpdate(
        def,
        node({}),
        node({ podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] }),
      ),
    ).toEqual([])
    const held = node({ podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] })
    expect(
      validateUpdate(
        def,
        held,
        node({ podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], unschedulable: true }),
      ),
    ).toEqual([])
    for (const spec of [
      {},
      { podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.1.0/24'] },
      { podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.2.0/24'] },
    ]) {
      expect(validateUpdate(def, held, node(spec))).toEqual([
        {
          field: 'spec.podCIDRs',
          reason: 'FieldValueForbidden',
          message: 'Forbidden: node updates may not change podCIDR except from "" to valid',
        },
      ])
    }
  })
})
