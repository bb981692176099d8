/**
 * Logs and exec through the engine: `kubectl logs` options mapped to the engine's log query,
 * and a command run in a container with its streams (and exit code) passed through.
 */
import type Docker from 'dockerode'
import type { Duplex } from 'node:stream'
import type { ExecStreams, TerminalSize } from '../types'
import type { LogOptions } from '../../../agent-protocol/log-options'
import type { ProbeOutcome } from '../probes'
import { Demuxer } from './engine'
import { hijackAttach } from './hijack'

/** The container's log from the engine, as `kubectl logs` asked for it (a terminal's log is one raw stream). */
export async function* engineLogs(
  docker: Docker,
  id: string,
  opts: LogOptions,
  running: boolean,
  tty = false,
): AsyncGenerator<Uint8Array> {
  const ctr = docker.getContainer(id)
  // Without `tail` the engine sends the whole log (its default, "all").
  const query: Docker.ContainerLogsOptions = {
    stdout: true,
    stderr: true,
    timestamps: !!opts.timestamps,
    ...(opts.tailLines !== undefined ? { tail: opts.tailLines } : {}),
    since: opts.sinceSeconds ? Math.floor(Date.now() / 1000) - opts.sinceSeconds : 0,
  }
  let budget = opts.limitBytes ?? Infinity
  const demux = outputOf(tty)
  const take = (chunks: Buffer[]): Uint8Array[] => {
    const out: Uint8Array[] = []
    for (const c of chunks) {
      if (budget <= 0) break
      const part = c.length > budget ? c.subarray(0, budget) : c
      budget -= part.length
      out.push(new Uint8Array(part))
    }
    return out
  }
  if (!(opts.follow && running)) {
    const all = await ctr.logs({ ...query, follow: false })
    const chunks: Buffer[] = []
    demux.push(Buffer.from(all), (_s, c) => chunks.push(c))
    yield* take(chunks)
    return
  }
  const stream: NodeJS.ReadableStream & { destroy?: () => void } = await ctr.logs({
    ...query,
    follow: true,
  })
  try {
    for await (const data of stream as AsyncIterable<Buffer>) {
      const chunks: Buffer[] = []
      demux.push(data, (_s, c) => chunks.push(c))
      yield* take(chunks)
      if (budget <= 0) return
    }
  } finally {
    stream.destroy?.()
  }
}

/** A terminal's output is raw; otherwise the engine multiplexes stdout and stderr. */
function outputOf(tty: boolean): Pick<Demuxer, 'push'> {
  return tty ? { push: (data, out) => data.length && out('stdout', data) } : new Demuxer()
}

/** Passes the engine's output on to stdout and stderr; resolves when the stream ends. */
function relayOutput(stream: Duplex, streams: ExecStreams, tty: boolean): Promise<void> {
  const demux = outputOf(tty)
  stream.on('data', (data: Buffer) =>
    demux.push(data, (s, c) =>
      s === 'stderr' ? streams.stderr(new Uint8Array(c)) : streams.stdout(new Uint8Array(c)),
    ),
  )
  return new Promise<void>((resolve) => {
    stream.on('end', resolve)
    stream.on('close', resolve)
    stream.on('error', () => resolve())
  })
}

/** Copies the client's stdin into the engine's stream, then half-closes it: the process reads end of file. */
function pumpStdin(stream: Duplex, stdin: AsyncIterable<Uint8Array>): void {
  void (async () => {
    try {
      for await (const chunk of stdin)
        if (!stream.write(chunk)) await new Promise((r) => stream.once('drain', r))
    } catch {
      // the caller's stream broke: end the input all the same
    }
    stream.end()
  })()
}

/** How long a terminal exec waits for the client's window size before it starts without one. */
const FIRST_SIZE_WAIT_MS = 500

/**
 * The client's window sizes: the first is awaited (kubectl sends it at once) so that the terminal
 * starts at that size; each later one goes to `resize` once the terminal exists.
 */
async function windowSizes(streams: ExecStreams): Promise<{
  first: TerminalSize | undefined
  follow(resize: (size: { h: number; w: number }) => Promise<unknown>): void
}> {
  let latest: TerminalSize | undefined
  let apply: ((size: TerminalSize) => void) | undefined
  if (streams.onResize) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FIRST_SIZE_WAIT_MS)
      streams.onResize!((size) => {
        latest = size
        clearTimeout(timer)
        resolve()
        apply?.(size)
      })
    })
  }
  return {
    first: latest,
    follow(resize) {
      // One resize at a time, the newest size last: kubectl sends its size plus one, then its size,
      // and two calls in flight at once may reach the engine in either order.
      let pending: TerminalSize | undefined
      let running = false
      const drain = async () => {
        running = true
        for (let next = pending; next; next = pending) {
          pending = undefined
          await resize({ h: next.height, w: next.width }).catch(() => {})
        }
        running = false
      }
      apply = (size) => {
        pending = size
        if (!running) void drain()
      }
      if (latest) apply(latest)
    },
  }
}

/** Runs a command in a running container (in a terminal with `-t`); resolves with its exit code. */
export async function engineExec(
  docker: Docker,
  id: string,
  command: string[],
  streams: ExecStreams,
): Promise<number> {
  const tty = !!streams.tty
  const sizes = tty ? await windowSizes(streams) : undefined
  const size = sizes?.first
  // Docker takes the terminal's first size as ConsoleSize, Podman as h and w.
  const consoleSize = size ? { ConsoleSize: [size.height, size.width] as [number, number] } : {}
  const exec = await docker.getContainer(id).exec({
    Cmd: command,
    AttachStdout: true,
    AttachStderr: true,
    AttachStdin: !!streams.stdin,
    Tty: tty,
    ...consoleSize,
  })
  const stream = (await exec.start({
    hijack: true,
    stdin: !!streams.stdin,
    Tty: tty,
    ...consoleSize,
    ...(size ? { h: size.height, w: size.width } : {}),
  })) as Duplex
  const ended = relayOutput(stream, streams, tty)
  sizes?.follow((s) => exec.resize(s))
  if (streams.stdin) pumpStdin(stream, streams.stdin)
  await ended
  const info = await exec.inspect()
  return info.ExitCode ?? 1
}

/**
 * Attaches to a container's main process: its output from now on, and its stdin when the client
 * sends one (`kubectl attach -i`; the container must keep stdin open, `stdin: true`). The client's
 * end of input half-closes the stream: a `stdinOnce` container's process then reads end of file.
 * `tty` is the container's own: its terminal is resized as the client's window is.
 */
export async function engineAttach(
  docker: Docker,
  id: string,
  streams: ExecStreams,
  tty: boolean,
): Promise<number> {
  const stream = await hijackAttach(docker, id, !!streams.stdin)
  const ended = relayOutput(stream, streams, tty)
  streams.signal?.addEventListener('abort', () => stream.destroy())
  if (tty)
    void windowSizes(streams).then((sizes) =>
      sizes.follow((size) => docker.getContainer(id).resize(size)),
    )
  if (streams.stdin) pumpStdin(stream, streams.stdin)
  await ended
  return 0
}

const PROBE_OUTPUT_LIMIT = 10 * 1024

/** An exec probe through the engine: success is exit code 0; the output is the failure message. */
export async function execProbe(
  docker: Docker,
  id: string,
  command: string[],
  timeoutMs: number,
): Promise<ProbeOutcome> {
  if (command.length === 0) return { ok: false, message: 'exec probe has no command' }
  let output = ''
  const collect = (c: Uint8Array) => {
    if (output.length < PROBE_OUTPUT_LIMIT) output += Buffer.from(c).toString('utf8')
  }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<ProbeOutcome>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          ok: false,
          message: `command ${JSON.stringify(command)} timed out after ${timeoutMs / 1000}s`,
        }),
      timeoutMs,
    )
  })
  const run = engineExec(docker, id, command, { stdout: collect, stderr: collect }).then(
    (code): ProbeOutcome =>
      code === 0
        ? { ok: true, message: output.trim() }
        : {
            ok: false,
            message: output.trim() || `command ${JSON.stringify(command)} exited with ${code}`,
          },
    (err: Error): ProbeOutcome => ({ ok: false, message: err.message }),
  )
  try {
    return await Promise.race([run, timeout])
  } finally {
    clearTimeout(timer)
  }
}
