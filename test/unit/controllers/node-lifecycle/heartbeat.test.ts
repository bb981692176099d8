import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../../src/apimachinery/types'
import { markConditionsUnknown } from '../../../../src/controllers/node-lifecycle/conditions'
import { assessHealth, lastHeartbeat } from '../../../../src/controllers/node-lifecycle/heartbeat'
import { parseGracePeriod } from '../../../../src/settings/grace-period'
import { newLease, newNode } from '../../../helpers'
import { formatTime } from '../../../../src/apimachinery/meta-time'

const t = (iso: string) => Date.parse(iso)
const periods = { gracePeriodMs: 40_000, startupGracePeriodMs: 60_000 }

describe('lastHeartbeat', () => {
  it.each<[string, KubeObject, KubeObject | undefined, string | undefined]>([
    [
      'the lease renewTime',
      newNode('n', { heartbeat: '2025-06-01T11:00:00Z' }),
      newLease('n', '2025-06-01T12:00:00.250000Z'),
      '2025-06-01T12:00:00.250Z',
    ],
    [
      'the Ready heartbeat without a lease',
      newNode('n', { heartbeat: '2025-06-01T11:00:00Z' }),
      undefined,
      '2025-06-01T11:00:00.000Z',
    ],
    [
      'the newer of the two',
      newNode('n', { heartbeat: '2025-06-01T12:30:00Z' }),
      newLease('n', '2025-06-01T12:00:00Z'),
      '2025-06-01T12:30:00.000Z',
    ],
    [
      'creation for a node that never reported Ready',
      newNode('n', { ready: null, creationTimestamp: '2025-06-01T10:00:00Z' }),
      undefined,
      '2025-06-01T10:00:00.000Z',
    ],
    [
      'a lease renewed after creation',
      newNode('n', { ready: null, creationTimestamp: '2025-06-01T10:00:00Z' }),
      newLease('n', '2025-06-01T10:00:30Z'),
      '2025-06-01T10:00:30.000Z',
    ],
    ['nothing at all', { kind: 'Node', metadata: { name: 'n' } }, undefined, undefined],
  ])('%s', (_, node, lease, want) => {
    const got = lastHeartbeat(node, lease)
    expect(got === undefined ? undefined : new Date(got).toISOString()).toBe(want)
  })
})

describe('assessHealth', () => {
  const beat = '2025-06-01T12:00:00Z'
  const node = newNode('n', { heartbeat: '2025-06-01T00:00:00Z' })
  const lease = newLease('n', beat)
  it.each<[string, number, { stale: boolean; recheckInMs?: number }]>([
    ['just renewed', t(beat), { stale: false }],
    ['halfway', t(beat) + 20_000, { stale: false }],
    ['exactly at the deadline', t(beat) + 40_000, { stale: false }],
    ['one millisecond past the deadline', t(beat) + 40_001, { stale: true }],
    ['long gone', t(beat) + 3_600_000, { stale: true }],
    ['heartbeat from a clock ahead of ours', t(beat) - 30_000, { stale: false }],
  ])('by the lease, whose store announces its deadline: %s', (_, now, want) => {
    const h = assessHealth(node, lease, now, periods)
    expect({ stale: h.stale, recheckInMs: h.recheckInMs }).toEqual(want)
  })

  const reported = newNode('n', { heartbeat: beat })
  it.each<[string, KubeObject | undefined, number, { stale: boolean; recheckInMs?: number }]>([
    ['just reported', undefined, t(beat), { stale: false, recheckInMs: 40_000 }],
    ['halfway', undefined, t(beat) + 20_000, { stale: false, recheckInMs: 20_001 }],
    ['exactly at the deadline', undefined, t(beat) + 40_000, { stale: false, recheckInMs: 1 }],
    ['one millisecond past the deadline', undefined, t(beat) + 40_001, { stale: true }],
    [
      'heartbeat from a clock ahead of ours',
      undefined,
      t(beat) - 30_000,
      { stale: false, recheckInMs: 40_000 },
    ],
    [
      'a lease past its deadline, announced already',
      newLease('n', '2025-06-01T11:59:00Z'),
      t(beat) + 10_000,
      { stale: false, recheckInMs: 30_001 },
    ],
  ])('by the Ready heartbeat, rechecked: %s', (_, byLease, now, want) => {
    const h = assessHealth(reported, byLease, now, periods)
    expect({ stale: h.stale, recheckInMs: h.recheckInMs }).toEqual(want)
  })

  it('rechecks a node whose startup grace ends before its lease is announced', () => {
    const starting = newNode('n', { ready: null, creationTimestamp: beat })
    const h = assessHealth(starting, newLease('n', beat), t(beat) + 1000, {
      gracePeriodMs: 40_000,
      startupGracePeriodMs: 20_000,
    })
    expect(h).toMatchObject({ stale: false, recheckInMs: 19_001 })
  })

  it('gives a node that never reported Ready the startup grace period', () => {
    const fresh = newNode('n', { ready: null, creationTimestamp: beat })
    expect(assessHealth(fresh, undefined, t(beat) + 50_000, periods)).toMatchObject({
      stale: false,
      gracePeriodMs: 60_000,
    })
    expect(assessHealth(fresh, undefined, t(beat) + 60_001, periods)).toMatchObject({ stale: true })
  })

  it('rechecks later when there is nothing to judge by', () => {
    expect(assessHealth({ kind: 'Node', metadata: { name: 'n' } }, undefined, 0, periods)).toEqual({
      gracePeriodMs: 60_000,
      stale: false,
      recheckInMs: 60_000,
    })
  })
})

describe('markConditionsUnknown', () => {
  const now = '2025-06-01T12:01:00Z'
  const pressure = (type: string, status: string) => ({
    type,
    status,
    reason: 'KubeletHasNo' + type,
    lastHeartbeatTime: '2025-06-01T12:00:00Z',
    lastTransitionTime: '2025-06-01T00:00:00Z',
  })

  it('turns every monitored condition Unknown and keeps the last heartbeat', () => {
    const node = newNode('n', {
      heartbeat: '2025-06-01T12:00:00Z',
      conditions: [
        pressure('MemoryPressure', 'False'),
        pressure('DiskPressure', 'False'),
        pressure('PIDPressure', 'False'),
        pressure('NetworkUnavailable', 'False'),
      ],
    })
    const { conditions, changed } = markConditionsUnknown(node, now)
    expect(changed).toBe(true)
    for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      expect(conditions.find((c) => c.type === type)).toMatchObject({
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastTransitionTime: now,
      })
    }
    expect(conditions.find((c) => c.type === 'Ready')!.lastHeartbeatTime).toBe(
      '2025-06-01T12:00:00Z',
    )
    // conditions the kubelet does not own are left alone
    expect(conditions.find((c) => c.type === 'NetworkUnavailable')!.status).toBe('False')
  })

  it('adds conditions the kubelet never posted', () => {
    const node = newNode('n', { ready: null, creationTimestamp: '2025-06-01T10:00:00Z' })
    const { conditions } = markConditionsUnknown(node, now)
    expect(conditions).toHaveLength(4)
    expect(conditions[0]).toEqual({
      type: 'Ready',
      status: 'Unknown',
      lastHeartbeatTime: '2025-06-01T10:00:00Z',
      lastTransitionTime: now,
      reason: 'NodeStatusNeverUpdated',
      message: 'Kubelet never posted node status.',
    })
  })

  it('changes nothing the second time', () => {
    const node = newNode('n', {
      conditions: [
        pressure('MemoryPressure', 'False'),
        pressure('DiskPressure', 'False'),
        pressure('PIDPressure', 'False'),
      ],
    })
    const once = markConditionsUnknown(node, now)
    const again = markConditionsUnknown(
      { ...node, status: { ...(node.status as object), conditions: once.conditions } },
      '2025-06-01T12:05:00Z',
    )
    expect(again).toEqual({ conditions: once.conditions, changed: false })
  })

  it('does not modify the cached node', () => {
    const node = newNode('n')
    const before = structuredClone(node)
    markConditionsUnknown(node, now)
    expect(node).toEqual(before)
  })
})

describe('formatTime', () => {
  it('prints whole seconds', () => {
    expect(formatTime(t('2025-06-01T12:00:00.999Z'))).toBe('2025-06-01T12:00:00Z')
  })
})

describe('parseGracePeriod', () => {
  it.each<[string | undefined, number | undefined]>([
    [undefined, undefined],
    ['', undefined],
    ['40', 40_000],
    ['4', 4000],
    ['2.5', 2500],
    ['40s', 40_000],
    ['500ms', 500],
    ['1m30s', 90_000],
    ['1h', 3_600_000],
    [' 50s ', 50_000],
    ['0', undefined],
    ['-5', undefined],
    ['forty', undefined],
    ['40x', undefined],
    ['s', undefined],
  ])('%j → %j ms', (value, want) => {
    expect(parseGracePeriod(value)).toBe(want)
  })
})
