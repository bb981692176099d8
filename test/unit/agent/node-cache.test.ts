import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/apimachinery/types'
import { nodeAfterEvent, ownNode } from '../../../src/agent/node-cache'
import { PodCIDRFollower } from '../../../src/agent/pod-cidr'
import { createLogger } from '../../../src/agent/log'
import type { ContainerRuntime } from '../../../src/agent/runtime/types'
import { newNode } from '../../helpers'

const version = (node: KubeObject, rv: string, uid?: string): KubeObject => ({
  ...node,
  metadata: { ...node.metadata, resourceVersion: rv, ...(uid ? { uid } : {}) },
})

describe("the agent's copy of its Node", () => {
  const n1 = newNode('n1')

  it('is the Node of its own name in a list, or none', () => {
    expect(ownNode([newNode('n2'), n1], 'n1')).toBe(n1)
    expect(ownNode([newNode('n2')], 'n1')).toBeUndefined()
    expect(ownNode([], 'n1')).toBeUndefined()
  })

  it('follows newer versions and ignores older ones and other Nodes', () => {
    const v5 = version(n1, '5')
    expect(nodeAfterEvent(undefined, 'ADDED', v5, 'n1')).toBe(v5)
    const v7 = version(n1, '7')
    expect(nodeAfterEvent(v5, 'MODIFIED', v7, 'n1')).toBe(v7)
    expect(nodeAfterEvent(v7, 'MODIFIED', v5, 'n1')).toBe(v7)
    expect(nodeAfterEvent(v7, 'MODIFIED', version(newNode('n2'), '9'), 'n1')).toBe(v7)
  })

  it('is emptied by the deletion of the Node it holds, and replaced by a Node registered again', () => {
    const v7 = version(n1, '7')
    expect(nodeAfterEvent(v7, 'DELETED', version(n1, '8'), 'n1')).toBeUndefined()
    expect(nodeAfterEvent(undefined, 'DELETED', version(n1, '8'), 'n1')).toBeUndefined()
    const again = version(n1, '3', 'uid-again')
    expect(nodeAfterEvent(v7, 'ADDED', again, 'n1')).toBe(again)
    // The deletion of an earlier Node of that name leaves the one registered since.
    expect(nodeAfterEvent(again, 'DELETED', v7, 'n1')).toBe(again)
  })
})

describe('waiting for a pod CIDR', () => {
  const runtime = () => {
    const set: string[] = []
    return {
      set,
      runtime: { setPodCIDR: (c: string) => set.push(c) } as unknown as ContainerRuntime,
    }
  }
  const quiet = createLogger({ write: () => {} })
  const withCIDR = (cidr: string) => ({
    ...newNode('n1'),
    spec: { podCIDR: cidr, podCIDRs: [cidr] },
  })

  it('ends when an observed Node has one, and hands it to the runtime', async () => {
    const { set, runtime: rt } = runtime()
    const follower = new PodCIDRFollower(rt, quiet)
    expect(follower.needed).toBe(true)
    let done = false
    const waiting = follower.wait('n1').then(() => (done = true))
    follower.observe(newNode('n1'))
    await Promise.resolve()
    expect(done).toBe(false)
    follower.observe(withCIDR('10.244.3.0/24'))
    await waiting
    expect(set).toEqual(['10.244.3.0/24'])
    expect(follower.needed).toBe(false)
    // Already known: no wait.
    await follower.wait('n1')
  })

  it('ends when released (the agent stops)', async () => {
    const follower = new PodCIDRFollower(runtime().runtime, quiet)
    const waiting = follower.wait('n1')
    follower.release()
    await waiting
    expect(follower.needed).toBe(true)
  })
})
