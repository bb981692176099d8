import { describe, expect, it } from 'vitest'
import { unionReads } from '../../../../src/controllers/runtime/shared-caches'
import type { ControllerDefinition, ResourceRef } from '../../../../src/controllers/runtime/types'
import type { Fields } from '../../../../src/controllers/runtime/fields'
import { nodes, pods, sameResource } from '../../../../src/controllers/resources'

const controller = (
  name: string,
  watches: ResourceRef[],
  podFields: Fields | undefined,
): ControllerDefinition => ({
  name,
  watches: {
    kinds: watches,
    reads: (r) => (sameResource(r, pods) ? podFields : undefined),
    keysFor: () => [],
    allKeys: () => [],
  },
  reconcile: () => ({ actions: [] }),
})

describe('what caches shared by several controllers keep', () => {
  it('keeps of a kind every field any controller that watches it reads', () => {
    const a = controller('a', [pods], { status: { phase: true } })
    const b = controller('b', [pods], { spec: { nodeName: true }, status: { podIP: true } })
    expect(unionReads([a, b], pods)).toEqual({
      status: { phase: true, podIP: true },
      spec: { nodeName: true },
    })
  })

  it('keeps a kind whole when one of them reads it whole, and ignores those that do not watch it', () => {
    const narrow = controller('narrow', [pods, nodes], { status: { phase: true } })
    const whole = controller('whole', [pods], undefined)
    const elsewhere = controller('elsewhere', [nodes], undefined)
    expect(unionReads([narrow, whole], pods)).toBeUndefined()
    expect(unionReads([narrow, elsewhere], pods)).toEqual({ status: { phase: true } })
    expect(unionReads([narrow, elsewhere], nodes)).toBeUndefined()
  })
})
