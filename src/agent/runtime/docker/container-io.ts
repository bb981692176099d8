/** `kubectl logs`, `exec` and `attach` on a docker runtime container, through the engine. */
import type Docker from 'dockerode'
import type { LogOptions } from '../../../agent-protocol/log-options'
import type { ExecStreams } from '../types'
import type { Ctr } from './pod-record'
import { engineAttach, engineExec, engineLogs } from './streams'

/** The log of the container `find` returns; a container that is gone or not started fails on the first read, as a stream error. */
export function containerLogs(
  docker: Docker,
  find: () => Ctr,
  podName: () => string | undefined,
  opts: LogOptions,
): AsyncIterable<Uint8Array> {
  const open = () => {
    const c = find()
    const pod = podName()
    if (opts.previous) {
      const prev = c.previousId
      if (!prev)
        throw new Error(`previous terminated container "${c.name}" in pod "${pod}" not found`)
      return engineLogs(docker, prev, opts, false, !!c.spec.tty)
    }
    if (!c.id) {
      const reason = 'waiting' in c.state ? c.state.waiting.reason : 'ContainerCreating'
      throw new Error(`container "${c.name}" in pod "${pod}" is waiting to start: ${reason}`)
    }
    return engineLogs(docker, c.id, opts, c.running, !!c.spec.tty)
  }
  return (async function* () {
    yield* open()
  })()
}

/** Runs a command in the running container `c` (named `container`); resolves to its exit code. */
export async function containerExec(
  docker: Docker,
  c: Ctr,
  container: string,
  command: string[],
  streams: ExecStreams,
): Promise<number> {
  if (!c.running || !c.id) throw new Error(`container ${container} is not running`)
  if (command.length === 0) throw new Error('exec needs a command')
  return engineExec(docker, c.id, command, streams)
}

/** Attaches to the running container `c`'s main process (named `container`); resolves to its exit code. */
export async function containerAttach(
  docker: Docker,
  c: Ctr,
  container: string,
  streams: ExecStreams,
): Promise<number> {
  if (!c.running || !c.id) throw new Error(`container ${container} is not running`)
  return engineAttach(docker, c.id, streams, !!c.spec.tty)
}
