/**
 * Logs and exec through the engine: `kubectl logs` options mapped to the engine's log query,
 * and a command run in a container with its streams (and exit code) passed through.
 */
import type Docker from 'dockerode'
import type { Duplex } from 'node:stream'
import type { ExecStreams } from '../types'
import type { LogOptions } from '../../../agent-protocol/log-options'
import type { ProbeOutcome } from '../probes'
import { Demuxer } from './engine'

/** The container's log from the engine, as `kubectl logs` asked for it. */
export async function* engineLogs(docker: Docker, id: string, opts: LogOptions, running: boolean): AsyncGenerator<Uint8Array> {
  const ctr = docker.getContainer(id)
  const query = {
    stdout: true,
    stderr: true,
    timestamps: !!opts.timestamps,
    tail: opts.tailLines !== undefined ? opts.tailLines : ('all' as unknown as number),
    since: opts.sinceSeconds ? Math.floor(Date.now() / 1000) - opts.sinceSeconds : 0,
  }
  let budget = opts.limitBytes ?? Infinity
  const demux = new Demuxer()
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
    const all = (await ctr.logs({ ...query, follow: false })) as unknown as Buffer
    const chunks: Buffer[] = []
    demux.push(Buffer.from(all), (_s, c) => chunks.push(c))
    yield* take(chunks)
    return
  }
  const stream = (await ctr.logs({ ...query, follow: true })) as unknown as NodeJS.ReadableStream & { destroy?: () => void }
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

/** Passes the engine's multiplexed output on to stdout and stderr; resolves when the stream ends. */
function relayOutput(stream: Duplex, streams: ExecStreams): Promise<void> {
  const demux = new Demuxer()
  stream.on('data', (data: Buffer) => demux.push(data, (s, c) => (s === 'stderr' ? streams.stderr(new Uint8Array(c)) : streams.stdout(new Uint8Array(c)))))
  return new Promise<void>((resolve) => {
    stream.on('end', resolve)
    stream.on('close', resolve)
    stream.on('error', () => resolve())
  })
}

/** Runs a command in a running container; resolves with its exit code. */
export async function engineExec(docker: Docker, id: string, command: string[], streams: ExecStreams): Promise<number> {
  const exec = await docker.getContainer(id).exec({ Cmd: command, AttachStdout: true, AttachStderr: true, AttachStdin: !!streams.stdin, Tty: false })
  const stream = (await exec.start({ hijack: true, stdin: !!streams.stdin })) as Duplex
  const ended = relayOutput(stream, streams)
  if (streams.stdin) {
    void (async () => {
      try {
        for await (const chunk of streams.stdin!) if (!stream.write(chunk)) await new Promise((r) => stream.once('drain', r))
      } catch {
        // the caller's stream broke: end the input all the same
      }
      stream.end()
    })()
  }
  await ended
  const info = await exec.inspect()
  return info.ExitCode ?? 1
}

/**
 * Attaches to a container's main process: its output from now on, until it ends or the client
 * leaves. Its stdin is not offered: the engine's hijacked attach is not portable across Docker
 * and Podman, so `kubectl attach -i` is refused with that reason (`kubectl exec -i` works).
 */
export async function engineAttach(docker: Docker, id: string, streams: ExecStreams): Promise<number> {
  if (streams.stdin) throw new Error('stdin is not supported by kubectl attach on this node (use kubectl exec -i)')
  // The options go in the query only: an engine may pass a request body on to the process.
  const query = { stream: true, stdout: true, stderr: true }
  const stream = (await docker.getContainer(id).attach({ ...query, _query: query, _body: {} } as Docker.ContainerAttachOptions)) as unknown as Duplex
  const ended = relayOutput(stream, streams)
  streams.signal?.addEventListener('abort', () => stream.destroy())
  await ended
  return 0
}

const PROBE_OUTPUT_LIMIT = 10 * 1024

/** An exec probe through the engine: success is exit code 0; the output is the failure message. */
export async function execProbe(docker: Docker, id: string, command: string[], timeoutMs: number): Promise<ProbeOutcome> {
  if (command.length === 0) return { ok: false, message: 'exec probe has no command' }
  let output = ''
  const collect = (c: Uint8Array) => {
    if (output.length < PROBE_OUTPUT_LIMIT) output += Buffer.from(c).toString('utf8')
  }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<ProbeOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, message: `command ${JSON.stringify(command)} timed out after ${timeoutMs / 1000}s` }), timeoutMs)
  })
  const run = engineExec(docker, id, command, { stdout: collect, stderr: collect }).then(
    (code): ProbeOutcome => (code === 0 ? { ok: true, message: output.trim() } : { ok: false, message: output.trim() || `command ${JSON.stringify(command)} exited with ${code}` }),
    (err: Error): ProbeOutcome => ({ ok: false, message: err.message }),
  )
  try {
    return await Promise.race([run, timeout])
  } finally {
    clearTimeout(timer)
  }
}
