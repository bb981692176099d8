import { describe, expect, it } from 'vitest'
import { WorkQueue } from '../../../../src/controllers/runtime/queue'
import { ResourceCache } from '../../../../src/controllers/runtime/cache'
import type { KubeObject } from '../../../../src/apimachinery/types'

const obj = (name: string, rv: number, data = 'x'): KubeObject => ({
  metadata: { name, namespace: 'ns', resourceVersion: String(rv) },
  data,
})

describe('WorkQueue', () => {
  it('holds a key once however often it is added, at its earliest due time', () => {
    const q = new WorkQueue()
    q.add('a', 100)
    q.add('a', 50)
    q.add('a', 200)
    expect(q.length).toBe(1)
    expect(q.nextDue()).toBe(50)
    expect(q.takeDue(49)).toEqual([])
    expect(q.takeDue(50)).toEqual(['a'])
    expect(q.length).toBe(0)
  })

  it('backs a failing key off exponentially and resets on forget', () => {
    const q = new WorkQueue(10, 1000)
    const delays: number[] = []
    for (let i = 0; i < 8; i++) {
      q.addRateLimited('k', 0)
      delays.push(q.nextDue()!)
      q.takeDue(Infinity)
    }
    expect(delays).toEqual([10, 20, 40, 80, 160, 320, 640, 1000])
    q.forget('k')
    q.addRateLimited('k', 0)
    expect(q.nextDue()).toBe(10)
  })

  it('returns due keys earliest first', () => {
    const q = new WorkQueue()
    q.add('late', 30)
    q.add('early', 10)
    q.add('future', 99)
    expect(q.takeDue(50)).toEqual(['early', 'late'])
  })
})

describe('ResourceCache', () => {
  it('never lets a replayed older change undo a newer write of its own', () => {
    const c = new ResourceCache()
    c.reset([obj('a', 1)], 1)
    c.put(obj('a', 5, 'mine'))
    expect(c.apply('MODIFIED', obj('a', 3, 'older')).applied).toBe(false)
    expect(c.get('ns/a')!.data).toBe('mine')
    expect(c.apply('MODIFIED', obj('a', 6, 'newer')).applied).toBe(true)
    expect(c.get('ns/a')!.data).toBe('newer')
  })

  it('keeps an object it deleted gone until the log reaches the deletion', () => {
    const c = new ResourceCache()
    c.reset([obj('a', 1)], 1)
    c.remove('ns/a', 7)
    expect(c.apply('MODIFIED', obj('a', 4)).applied).toBe(false)
    expect(c.get('ns/a')).toBeUndefined()
    expect(c.apply('DELETED', obj('a', 7)).applied).toBe(true)
    expect(c.apply('ADDED', obj('a', 9)).applied).toBe(true)
    expect(c.get('ns/a')).toBeDefined()
  })

  it('lists a namespace from its index, following every add, move and delete', () => {
    const c = new ResourceCache()
    const inNs = (name: string, namespace: string) => ({
      ...obj(name, 1),
      metadata: { ...obj(name, 1).metadata, namespace },
    })
    c.reset([inNs('a', 'x'), inNs('b', 'y')], 1)
    c.apply('ADDED', {
      ...inNs('c', 'x'),
      metadata: { ...inNs('c', 'x').metadata, resourceVersion: '2' },
    })
    expect(
      c
        .list('x')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['a', 'c'])
    c.remove('x/a', 3)
    expect(c.list('x').map((o) => o.metadata.name)).toEqual(['c'])
    expect(c.list('y').map((o) => o.metadata.name)).toEqual(['b'])
    expect(c.list('nowhere')).toEqual([])
    expect(c.list().length).toBe(2)
  })
})

describe('slowStart', () => {
  it('runs calls in batches of 1, 2, 4 and stops after the first batch with a failure', async () => {
    const { slowStart } = await import('../../../../src/controllers/runtime/slow-start')
    const attempted: number[] = []
    const batches: number[] = []
    const call = async (n: number, batch: number) => {
      attempted.push(n)
      batches[n] = batch
      if (n === 5) throw new Error('quota exceeded')
    }
    await expect(slowStart([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], call)).rejects.toThrow('quota exceeded')
    expect(attempted.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(batches).toEqual([0, 1, 1, 2, 2, 2, 2])
  })

  it('reports every call done when none fails', async () => {
    const { slowStart } = await import('../../../../src/controllers/runtime/slow-start')
    expect(await slowStart([1, 2, 3, 4, 5], async () => {})).toBe(5)
  })
})
