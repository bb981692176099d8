import { describe, expect, it } from 'vitest'
import {
  reconcileTaints,
  toleratesTaint,
  type ConditionLike,
  type Taint,
  type Toleration,
} from '../../../../src/controllers/node-lifecycle/taints'

describe('toleratesTaint', () => {
  const taint: Taint = { key: 'k', value: 'v', effect: 'NoExecute' }
  it.each<[string, Toleration, boolean]>([
    [
      'Equal with key, value and effect',
      { key: 'k', operator: 'Equal', value: 'v', effect: 'NoExecute' },
      true,
    ],
    ['empty operator means Equal', { key: 'k', value: 'v' }, true],
    ['Equal with another value', { key: 'k', operator: 'Equal', value: 'w' }, false],
    ['Equal without a value against a valued taint', { key: 'k', operator: 'Equal' }, false],
    ['Exists with the key', { key: 'k', operator: 'Exists' }, true],
    ['Exists with another key', { key: 'j', operator: 'Exists' }, false],
    ['Exists with an empty key matches every key', { operator: 'Exists' }, true],
    [
      'Exists with an empty key respects the effect',
      { operator: 'Exists', effect: 'NoSchedule' },
      false,
    ],
    ['empty effect matches all effects', { key: 'k', operator: 'Exists', effect: '' }, true],
    ['another effect', { key: 'k', operator: 'Exists', effect: 'NoSchedule' }, false],
    ['unknown operator', { key: 'k', operator: 'In', value: 'v' }, false],
  ])('%s', (_, toleration, want) => {
    expect(toleratesTaint(toleration, taint)).toBe(want)
  })

  it('matches a valueless taint with Equal and no value', () => {
    expect(
      toleratesTaint({ key: 'k', operator: 'Equal' }, { key: 'k', effect: 'NoSchedule' }),
    ).toBe(true)
  })
})

describe('reconcileTaints', () => {
  const now = '2025-06-01T12:00:00Z'
  const earlier = '2025-06-01T11:00:00Z'
  const ready = (status: string): ConditionLike => ({ type: 'Ready', status })
  const unreachable = (effect: string, timeAdded = now): Taint => ({
    key: 'node.kubernetes.io/unreachable',
    effect,
    timeAdded,
  })
  const notReady = (effect: string, timeAdded = now): Taint => ({
    key: 'node.kubernetes.io/not-ready',
    effect,
    timeAdded,
  })
  const user: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoExecute' }

  it.each<[string, Taint[], ConditionLike[], boolean, Taint[], boolean]>([
    ['healthy and untainted', [], [ready('True')], false, [], false],
    [
      'Unknown adds both unreachable taints',
      [],
      [ready('Unknown')],
      false,
      [unreachable('NoSchedule'), unreachable('NoExecute')],
      true,
    ],
    [
      'False adds both not-ready taints',
      [],
      [ready('False')],
      false,
      [notReady('NoSchedule'), notReady('NoExecute')],
      true,
    ],
    [
      'Unknown keeps taints already there, with their timeAdded',
      [unreachable('NoSchedule', earlier), unreachable('NoExecute', earlier)],
      [ready('Unknown')],
      false,
      [unreachable('NoSchedule', earlier), unreachable('NoExecute', earlier)],
      false,
    ],
    [
      'Unknown swaps not-ready for unreachable',
      [notReady('NoSchedule', earlier), notReady('NoExecute', earlier)],
      [ready('Unknown')],
      false,
      [unreachable('NoSchedule'), unreachable('NoExecute')],
      true,
    ],
    [
      'recovery removes unreachable and not-ready taints',
      [
        unreachable('NoSchedule', earlier),
        user,
        unreachable('NoExecute', earlier),
        notReady('NoSchedule', earlier),
      ],
      [ready('True')],
      false,
      [user],
      true,
    ],
    [
      'other taints are never touched',
      [user, { key: 'node.kubernetes.io/unreachable', effect: 'PreferNoSchedule' }],
      [ready('True')],
      false,
      [user, { key: 'node.kubernetes.io/unreachable', effect: 'PreferNoSchedule' }],
      false,
    ],
    [
      'pressure conditions add NoSchedule taints',
      [],
      [
        ready('True'),
        { type: 'MemoryPressure', status: 'True' },
        { type: 'DiskPressure', status: 'False' },
        { type: 'PIDPressure', status: 'True' },
      ],
      false,
      [
        { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule', timeAdded: now },
        { key: 'node.kubernetes.io/pid-pressure', effect: 'NoSchedule', timeAdded: now },
      ],
      true,
    ],
    [
      'relieved pressure removes its taint',
      [{ key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' }],
      [ready('True'), { type: 'DiskPressure', status: 'False' }],
      false,
      [],
      true,
    ],
    [
      'a cordoned node gets the unschedulable taint',
      [],
      [ready('True')],
      true,
      [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: now }],
      true,
    ],
    [
      'an uncordoned node loses it',
      [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
      [ready('True')],
      false,
      [],
      true,
    ],
    [
      'without a Ready condition the registration taint stays',
      [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }],
      [],
      false,
      [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }],
      false,
    ],
  ])('%s', (_, current, conditions, unschedulable, want, changed) => {
    expect(reconcileTaints(current, conditions, unschedulable, now)).toEqual({
      taints: want,
      changed,
    })
  })
})
