import { describe, expect, it } from 'vitest'
import {
  firedAt,
  HostSchedule,
  nextAlarmAt,
} from '../../../../durable-objects/controller-host/schedule'

describe('the pass schedule of a host that runs several controllers', () => {
  it('runs every controller of a new instance at once, in order, then each when its own pass asked', () => {
    const s = new HostSchedule(100)
    expect(s.next(['a', 'b', 'c'])).toEqual({ name: 'a', at: 0 })
    s.passed('a', 1000, 1010, 31_010)
    expect(s.next(['a', 'b', 'c'])).toEqual({ name: 'b', at: 0 })
    s.passed('b', 1010, 1020, 5000)
    s.passed('c', 1020, 1030, undefined)
    expect(s.next(['a', 'b', 'c'])).toEqual({ name: 'b', at: 5000 })
    s.passed('b', 5000, 5010, undefined)
    expect(s.next(['a', 'b', 'c'])).toEqual({ name: 'a', at: 31_010 })
  })

  it('a controller with work left over runs again only after the others already due', () => {
    const s = new HostSchedule(100)
    for (const name of ['a', 'b']) s.passed(name, 0, 0, 30_000)
    s.poked('b', 2000)
    // a's pass did not finish its keys: it asks to run again at once, but b was due before.
    s.passed('a', 2000, 2500, 2500)
    expect(s.next(['a', 'b'])).toEqual({ name: 'b', at: 2000 })
    s.passed('b', 2500, 2600, 32_600)
    expect(s.next(['a', 'b'])).toEqual({ name: 'a', at: 2500 })
  })

  it('a notification brings a pass forward, no sooner than the gap after the last, and never pushes one back', () => {
    const s = new HostSchedule(100)
    s.passed('a', 0, 1000, 31_000)
    expect(s.poked('a', 1020)).toBe(1100)
    expect(s.poked('a', 1050)).toBe(1100)
    s.passed('a', 1100, 1200, 400)
    expect(s.poked('a', 1300)).toBe(400)
  })

  it('a notification that arrives during a pass survives the pass re-arming its resync', () => {
    const s = new HostSchedule(100)
    s.passed('a', 0, 0, 30_000)
    s.poked('a', 5000) // during the pass that starts at 4990
    s.passed('a', 4990, 5200, 35_200)
    expect(s.next(['a'])).toEqual({ name: 'a', at: 5300 })
    // One that arrived before the pass began was served by it.
    s.poked('a', 6000)
    s.passed('a', 6100, 6200, 36_200)
    expect(s.next(['a'])).toEqual({ name: 'a', at: 36_200 })
  })

  it('sets the next alarm after the one running, even when the next controller is due at that very time', () => {
    const s = new HostSchedule(100)
    for (const name of ['a', 'b']) s.passed(name, 0, 0, 30_000)
    // One change woke both at 5000: the alarm for 5000 runs a, and b is due at 5000 too.
    s.poked('a', 5000)
    s.poked('b', 5000)
    s.passed('a', 4999, 5000, 35_000)
    const { name, at } = s.next(['a', 'b'])
    expect({ name, at }).toEqual({ name: 'b', at: 5000 })
    // The clock did not move during a's pass (no I/O finished within the millisecond).
    expect(nextAlarmAt(at, 5000, 5000)).toBe(5001)
    // Otherwise: when it is due, never in the past.
    expect(nextAlarmAt(9000, 5000, 5000)).toBe(9000)
    expect(nextAlarmAt(4000, 6000, 5000)).toBe(6000)
    // A new instance does not know when the alarm running was set for: it fired at or before now.
    expect(nextAlarmAt(4000, 6000, undefined)).toBe(6000)
  })

  it('brings the alarm forward for a notification no nearer than just after the alarm that ran', () => {
    const s = new HostSchedule(100)
    for (const name of ['a', 'b']) s.passed(name, 0, 0, 30_000)
    // The alarm for 5000 ran a's pass; b, notified within that millisecond, is due at once.
    s.passed('a', 5000, 5000, 35_000)
    const due = s.poked('b', 5000)
    expect(due).toBe(5000)
    expect(nextAlarmAt(due, 5000, 5000)).toBe(5001)
    // Later notifications are not held back.
    expect(nextAlarmAt(s.poked('b', 5200), 5200, 5000)).toBe(5200)
  })

  it('counts an alarm that runs late as fired when its handler began, so the next is set past that', () => {
    // Set for 5000, its handler began at 5003: an alarm set again for 5001 to 5003 would never fire.
    const fired = firedAt(5000, 5003)
    expect(fired).toBe(5003)
    expect(nextAlarmAt(5001, 5003, fired)).toBe(5004)
    // On time, or not set by this instance: when it began.
    expect(firedAt(5000, 5000)).toBe(5000)
    expect(firedAt(undefined, 7000)).toBe(7000)
  })
})
