import { describe, expect, it } from 'vitest'
import {
  LogBuffer,
  rfc3339Nano,
  type LogReadOptions,
} from '../../../../src/agent/runtime/log-buffer'

async function collect(iter: AsyncIterable<Uint8Array>): Promise<string> {
  let out = ''
  for await (const chunk of iter) out += Buffer.from(chunk).toString('utf8')
  return out
}

/** A clock that advances 1 ms per read, starting at a fixed instant. */
function fakeClock(startMs = Date.parse('2026-05-01T12:00:00Z')) {
  let ns = BigInt(startMs) * 1_000_000n
  return () => (ns += 1_000_000n)
}

describe('LogBuffer', () => {
  it('keeps lines whole across chunks and interleaves streams by line', () => {
    const b = new LogBuffer()
    b.write('stdout', 'hel')
    b.write('stderr', 'oops\n')
    b.write('stdout', 'lo\nwor')
    expect(b.text()).toBe('oops\nhello\n')
    b.close()
    expect(b.text()).toBe('oops\nhello\nwor')
  })

  const reads: { name: string; opts: LogReadOptions; want: string }[] = [
    { name: 'everything', opts: {}, want: 'one\ntwo\nthree\n' },
    { name: 'tailLines', opts: { tailLines: 2 }, want: 'two\nthree\n' },
    { name: 'tailLines 0', opts: { tailLines: 0 }, want: '' },
    { name: 'tailLines beyond the buffer', opts: { tailLines: 10 }, want: 'one\ntwo\nthree\n' },
    { name: 'limitBytes cuts mid-line', opts: { limitBytes: 6 }, want: 'one\ntw' },
    { name: 'tail and limit together', opts: { tailLines: 1, limitBytes: 3 }, want: 'thr' },
  ]
  for (const r of reads) {
    it(`reads ${r.name}`, async () => {
      const b = new LogBuffer()
      b.write('stdout', 'one\ntwo\nthree\n')
      b.close()
      expect(await collect(b.read(r.opts))).toBe(r.want)
    })
  }

  it('prefixes RFC3339Nano timestamps', async () => {
    const b = new LogBuffer(1024, fakeClock())
    b.write('stdout', 'a\nb\n')
    b.close()
    expect(await collect(b.read({ timestamps: true }))).toBe(
      '2026-05-01T12:00:00.001000000Z a\n2026-05-01T12:00:00.001000000Z b\n',
    )
    expect(rfc3339Nano(1_777_000_000_123_456_789n)).toBe('2026-04-24T03:06:40.123456789Z')
  })

  it('filters by sinceSeconds', async () => {
    const old = Date.now() - 60_000
    const clock = (() => {
      let calls = 0
      return () => BigInt(calls++ === 0 ? old : Date.now()) * 1_000_000n
    })()
    const b = new LogBuffer(1024, clock)
    b.write('stdout', 'old\n')
    b.write('stdout', 'new\n')
    b.close()
    expect(await collect(b.read({ sinceSeconds: 10 }))).toBe('new\n')
    expect(await collect(b.read({ sinceSeconds: 120 }))).toBe('old\nnew\n')
  })

  it('keeps only the newest bytes within its limit', () => {
    const b = new LogBuffer(10)
    for (let i = 0; i < 10; i++) b.write('stdout', `line${i}\n`)
    expect(b.text()).toBe('line9\n')
    b.write('stdout', 'x\n')
    expect(b.text()).toBe('line9\nx\n')
  })

  it('follows new output and ends when the instance ends', async () => {
    const b = new LogBuffer()
    b.write('stdout', 'first\n')
    const reading = collect(b.read({ follow: true }))
    await new Promise((r) => setTimeout(r, 20))
    b.write('stdout', 'second\n')
    await new Promise((r) => setTimeout(r, 20))
    b.write('stderr', 'last words')
    b.close()
    expect(await reading).toBe('first\nsecond\nlast words')
  })

  it('follows from the tail only', async () => {
    const b = new LogBuffer()
    b.write('stdout', 'a\nb\nc\n')
    const reading = collect(b.read({ follow: true, tailLines: 1 }))
    b.write('stdout', 'd\n')
    b.close()
    expect(await reading).toBe('c\nd\n')
  })

  it('stops following at limitBytes', async () => {
    const b = new LogBuffer()
    const reading = collect(b.read({ follow: true, limitBytes: 5 }))
    b.write('stdout', 'abc\n')
    b.write('stdout', 'defgh\n')
    expect(await reading).toBe('abc\nd')
  })
})
