import type { LogOptions } from '../../agent-protocol/log-options'

/** One line of a container's output (with its newline, unless the container ended mid-line). */
interface LogLine {
  seq: number
  /** wall clock in ms, for sinceSeconds */
  ms: number
  /** RFC 3339 with nanoseconds, for the timestamps prefix */
  time: string
  data: Buffer
}

export const DEFAULT_LOG_LIMIT_BYTES = 1024 * 1024
/** A line longer than this is cut into pieces, as container log drivers do. */
const MAX_LINE_BYTES = 16 * 1024

/** RFC3339Nano as kubelet prints it with `--timestamps`: always nine fractional digits here. */
export function rfc3339Nano(epochNs: bigint): string {
  const ms = Number(epochNs / 1_000_000n)
  const nanos = (epochNs % 1_000_000_000n).toString().padStart(9, '0')
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, `.${nanos}Z`)
}

/** Wall clock in nanoseconds, finer than Date.now() so lines written in one millisecond keep their order. */
export function nowNs(): bigint {
  return BigInt(Math.floor((performance.timeOrigin + performance.now()) * 1_000_000))
}

export type LogReadOptions = Pick<
  LogOptions,
  'follow' | 'tailLines' | 'sinceSeconds' | 'timestamps' | 'limitBytes'
>

/**
 * The last `limitBytes` of one container instance's stdout and stderr, interleaved line by line as
 * they arrived. Followers are woken on every new line and end when the buffer is closed (the
 * container exited).
 */
export class LogBuffer {
  private lines: LogLine[] = []
  private head = 0
  private bytes = 0
  private seq = 0
  private ended = false
  private readonly partial = new Map<string, { data: Buffer; ns: bigint }>()
  private waiters: (() => void)[] = []

  constructor(
    private readonly limitBytes = DEFAULT_LOG_LIMIT_BYTES,
    private readonly clock: () => bigint = nowNs,
  ) {}

  get closed(): boolean {
    return this.ended
  }

  /** Appends output of one stream; complete lines become visible at once, a partial one waits for its newline. */
  write(stream: string, chunk: Buffer | string): void {
    if (this.ended) return
    const ns = this.clock()
    const pending = this.partial.get(stream)
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    let firstNs = ns
    if (pending) {
      data = Buffer.concat([pending.data, data])
      firstNs = pending.ns
      this.partial.delete(stream)
    }
    let start = 0
    for (;;) {
      const nl = data.indexOf(10, start)
      if (nl < 0) break
      this.pushLine(data.subarray(start, nl + 1), firstNs)
      firstNs = ns
      start = nl + 1
    }
    let rest = data.subarray(start)
    while (rest.length >= MAX_LINE_BYTES) {
      this.pushLine(rest.subarray(0, MAX_LINE_BYTES), firstNs)
      firstNs = ns
      rest = rest.subarray(MAX_LINE_BYTES)
    }
    if (rest.length) this.partial.set(stream, { data: Buffer.from(rest), ns: firstNs })
    this.wake()
  }

  /** The instance ended: unfinished lines are kept as they are and followers finish. */
  close(): void {
    if (this.ended) return
    for (const { data, ns } of this.partial.values()) this.pushLine(data, ns)
    this.partial.clear()
    this.ended = true
    this.wake()
  }

  /** All retained output as text (for tests and diagnostics). */
  text(): string {
    return Buffer.concat(this.lines.slice(this.head).map((l) => l.data)).toString('utf8')
  }

  /** The output as `kubectl logs` asks for it; with `follow`, stays open until the instance ends. */
  async *read(opts: LogReadOptions = {}): AsyncGenerator<Uint8Array> {
    let budget = opts.limitBytes !== undefined && opts.limitBytes > 0 ? opts.limitBytes : Infinity
    const emit = (line: LogLine): Buffer | undefined => {
      const out = opts.timestamps
        ? Buffer.concat([Buffer.from(line.time + ' '), line.data])
        : line.data
      if (out.length <= budget) {
        budget -= out.length
        return out
      }
      const cut = out.subarray(0, budget)
      budget = 0
      return cut.length ? cut : undefined
    }

    let snapshot = this.lines.slice(this.head)
    if (opts.sinceSeconds !== undefined && opts.sinceSeconds > 0) {
      const fromMs = Date.now() - opts.sinceSeconds * 1000
      snapshot = snapshot.filter((l) => l.ms >= fromMs)
    }
    if (opts.tailLines !== undefined && opts.tailLines >= 0)
      snapshot = opts.tailLines === 0 ? [] : snapshot.slice(-opts.tailLines)
    let lastSeq = this.seq
    for (const line of snapshot) {
      const out = emit(line)
      if (out) yield out
      if (budget <= 0) return
    }
    if (!opts.follow) return
    for (;;) {
      const fresh = this.linesAfter(lastSeq)
      for (const line of fresh) {
        lastSeq = line.seq
        const out = emit(line)
        if (out) yield out
        if (budget <= 0) return
      }
      if (this.ended && this.linesAfter(lastSeq).length === 0) return
      await new Promise<void>((resolve) => this.waiters.push(resolve))
    }
  }

  private linesAfter(seq: number): LogLine[] {
    const out: LogLine[] = []
    for (let i = this.lines.length - 1; i >= this.head && this.lines[i]!.seq > seq; i--)
      out.push(this.lines[i]!)
    return out.reverse()
  }

  private pushLine(data: Buffer, ns: bigint): void {
    const line: LogLine = {
      seq: ++this.seq,
      ms: Number(ns / 1_000_000n),
      time: rfc3339Nano(ns),
      data: Buffer.from(data),
    }
    this.lines.push(line)
    this.bytes += line.data.length
    while (this.bytes > this.limitBytes && this.head < this.lines.length - 1) {
      this.bytes -= this.lines[this.head]!.data.length
      this.head++
    }
    // Dropped lines are compacted away in batches rather than shifted one by one.
    if (this.head > 1024 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head)
      this.head = 0
    }
  }

  private wake(): void {
    const waiters = this.waiters
    this.waiters = []
    for (const w of waiters) w()
  }
}
