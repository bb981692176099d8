/** A process container's logs: the current or previous instance's, and the tail kept as its termination message. */
import type { LogOptions } from '../../agent-protocol/log-options'
import type { LogBuffer } from './log-buffer'
import type { Container } from './process-records'

/** kubelet keeps at most this much of a failed container's log as its termination message. */
const TERMINATION_MESSAGE_LINES = 80
const TERMINATION_MESSAGE_BYTES = 4096

/** The log of the container `find` returns; a container that is gone or not started fails on the first read, as a stream error. */
export function containerLogs(
  find: () => Container,
  podName: () => string | undefined,
  opts: LogOptions,
): AsyncIterable<Uint8Array> {
  return readLogs(() => {
    const c = find()
    if (opts.previous) {
      if (!c.previousLogs)
        throw new Error(`previous terminated container "${c.name}" in pod "${podName()}" not found`)
      return c.previousLogs.read(opts)
    }
    if (!c.logs) {
      const reason = 'waiting' in c.state ? c.state.waiting.reason : 'ContainerCreating'
      throw new Error(`container "${c.name}" in pod "${podName()}" is waiting to start: ${reason}`)
    }
    return c.logs.read({ ...opts, follow: opts.follow && !c.logs.closed })
  })
}

/** Wraps a log read so that a missing container fails on the first read, as a stream error. */
async function* readLogs(open: () => AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* open()
}

/** The last lines of a log, as much as a termination message holds. */
export function tailOf(logs: LogBuffer | undefined): string | undefined {
  if (!logs) return undefined
  const lines = logs.text().split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  const text = lines.slice(-TERMINATION_MESSAGE_LINES).join('\n')
  if (!text) return undefined
  return Buffer.from(text).subarray(-TERMINATION_MESSAGE_BYTES).toString('utf8')
}
