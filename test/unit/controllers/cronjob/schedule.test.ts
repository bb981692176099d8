import { describe, expect, it } from 'vitest'
import { nextAfter } from '../../../../src/apimachinery/cron/next'
import { parseCron } from '../../../../src/apimachinery/cron/parse'
import { dueActivation, scheduleOf } from '../../../../src/controllers/cronjob/schedule'
import { toCronJob } from '../../../../src/controllers/cronjob/cronjob'

const at = (iso: string) => Date.parse(iso)
const iso = (t: number | undefined) =>
  t === undefined ? undefined : new Date(t).toISOString().replace('.000Z', 'Z')

describe('cron next run', () => {
  it.each([
    // schedule, after, zone, expected next
    ['*/1 * * * *', '2025-06-01T12:00:30Z', undefined, '2025-06-01T12:01:00Z'],
    ['*/15 * * * *', '2025-06-01T12:07:00Z', undefined, '2025-06-01T12:15:00Z'],
    ['*/15 * * * *', '2025-06-01T12:45:00Z', undefined, '2025-06-01T13:00:00Z'],
    ['5-20/5 3 * * *', '2025-06-01T03:20:00Z', undefined, '2025-06-02T03:05:00Z'],
    ['10/20 * * * *', '2025-06-01T12:31:00Z', undefined, '2025-06-01T12:50:00Z'],
    ['0 9,17 * * *', '2025-06-01T09:00:00Z', undefined, '2025-06-01T17:00:00Z'],
    ['0 9 * * mon-fri', '2025-06-06T10:00:00Z', undefined, '2025-06-09T09:00:00Z'],
    ['0 0 1 jan,jul *', '2025-02-01T00:00:00Z', undefined, '2025-07-01T00:00:00Z'],
    // month ends: a 31st is skipped by months without one
    ['0 0 31 * *', '2025-04-01T00:00:00Z', undefined, '2025-05-31T00:00:00Z'],
    ['0 0 31 * *', '2025-05-31T00:00:00Z', undefined, '2025-07-31T00:00:00Z'],
    ['30 23 30 * *', '2025-01-31T00:00:00Z', undefined, '2025-03-30T23:30:00Z'],
    // leap years
    ['0 0 29 2 *', '2025-03-01T00:00:00Z', undefined, '2028-02-29T00:00:00Z'],
    ['0 0 29 2 *', '2024-01-01T00:00:00Z', undefined, '2024-02-29T00:00:00Z'],
    ['0 0 30 2 *', '2025-01-01T00:00:00Z', undefined, undefined],
    // day of month and day of week: either, unless one of them is *
    ['0 0 13 * fri', '2025-06-01T00:00:00Z', undefined, '2025-06-06T00:00:00Z'],
    ['0 0 ? * 5', '2025-06-01T00:00:00Z', undefined, '2025-06-06T00:00:00Z'],
    ['0 0 */2 * 1', '2025-06-01T00:00:00Z', undefined, '2025-06-02T00:00:00Z'],
    // macros
    ['@hourly', '2025-06-01T12:00:00Z', undefined, '2025-06-01T13:00:00Z'],
    ['@weekly', '2025-06-01T12:00:00Z', undefined, '2025-06-08T00:00:00Z'],
    ['@yearly', '2025-06-01T12:00:00Z', undefined, '2026-01-01T00:00:00Z'],
    ['@monthly', '2025-12-15T00:00:00Z', undefined, '2026-01-01T00:00:00Z'],
    // time zones
    ['0 9 * * *', '2025-06-01T00:00:00Z', 'America/New_York', '2025-06-01T13:00:00Z'],
    ['0 9 * * *', '2025-01-15T00:00:00Z', 'America/New_York', '2025-01-15T14:00:00Z'],
    ['CRON_TZ=Asia/Tokyo 0 0 * * *', '2025-06-01T00:00:00Z', undefined, '2025-06-01T15:00:00Z'],
    ['TZ=Asia/Kolkata 0 0 1 * *', '2025-06-01T00:00:00Z', undefined, '2025-06-30T18:30:00Z'],
    // DST: a skipped wall time does not run that day; a repeated one runs once
    ['30 2 * * *', '2025-03-09T00:00:00Z', 'America/New_York', '2025-03-10T06:30:00Z'],
    ['30 1 * * *', '2025-11-02T05:30:00Z', 'America/New_York', '2025-11-03T06:30:00Z'],
    ['30 1 * * *', '2025-11-02T00:00:00Z', 'America/New_York', '2025-11-02T05:30:00Z'],
  ])('%s after %s in %s → %s', (schedule, after, zone, expected) => {
    const s = parseCron(schedule)
    expect(iso(nextAfter(s, at(after), zone ?? s.timeZone))).toBe(expected)
  })

  it.each([
    ['60 * * * *'],
    ['* * *'],
    ['*/0 * * * *'],
    ['0 0 0 * *'],
    ['0 0 * 13 *'],
    ['5-1 * * * *'],
    ['@often'],
    ['x * * * *'],
  ])('rejects %s', (schedule) => {
    expect(() => parseCron(schedule)).toThrow()
  })

  it('reports an unknown time zone', () => {
    const cj = toCronJob({
      metadata: { name: 'x' },
      spec: { schedule: '* * * * *', timeZone: 'Mars/Olympus' },
    })
    expect(scheduleOf(cj)).toMatchObject({ ok: false, reason: 'UnknownTimeZone' })
  })
})

describe('missed schedules', () => {
  const cronJob = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) =>
    toCronJob({ metadata: { name: 'x', creationTimestamp: '2025-06-01T09:30:00Z' }, spec, status })

  it.each([
    {
      name: 'nothing due yet',
      spec: { schedule: '0 * * * *' },
      status: { lastScheduleTime: '2025-06-01T12:00:00Z' },
      now: '2025-06-01T12:30:00Z',
      scheduled: undefined,
      missed: 0,
    },
    {
      name: 'one due',
      spec: { schedule: '0 * * * *' },
      status: { lastScheduleTime: '2025-06-01T11:00:00Z' },
      now: '2025-06-01T12:00:05Z',
      scheduled: '2025-06-01T12:00:00Z',
      missed: 1,
    },
    {
      name: 'three missed since creation',
      spec: { schedule: '0 * * * *' },
      status: {},
      now: '2025-06-01T12:10:00Z',
      scheduled: '2025-06-01T12:00:00Z',
      missed: 3,
    },
    {
      name: 'startingDeadlineSeconds bounds the search',
      spec: { schedule: '0 * * * *', startingDeadlineSeconds: 3600 },
      status: {},
      now: '2025-06-01T12:10:00Z',
      scheduled: '2025-06-01T12:00:00Z',
      missed: 1,
    },
    {
      name: 'too many missed',
      spec: { schedule: '*/1 * * * *' },
      status: {},
      now: '2025-06-02T09:30:30Z',
      scheduled: '2025-06-02T09:30:00Z',
      missed: 101,
    },
  ])('$name', ({ spec, status, now, scheduled, missed }) => {
    const cj = cronJob(spec, status)
    const parsed = scheduleOf(cj)
    if (!parsed.ok) throw new Error(parsed.message)
    const due = dueActivation(cj, parsed.schedule, parsed.zone, at(now))
    expect(iso(due.scheduled)).toBe(scheduled)
    expect(due.missed).toBe(missed)
  })
})
