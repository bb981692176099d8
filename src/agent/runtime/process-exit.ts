/** A container's process ended: its probes and execs stopped, its terminated state recorded. */
import { formatTime } from '../../apimachinery/meta-time'
import { signalGroup } from './process-group'
import { tailOf } from './process-logs'
import type { Container, Instance } from './process-records'
import type { InstanceEnd } from './process-spawn'
import type { ContainerState } from './types'

type State = ContainerState['state']

/** Records the end of `instance`; false when it was recorded already. */
export function recordExit(
  c: Container,
  instance: Instance,
  end: InstanceEnd,
  now: number,
): boolean {
  if (instance.done) return false
  instance.done = true
  for (const w of c.probes) w.stop()
  c.probes = []
  for (const e of c.execs) signalGroup(e, 'SIGKILL')
  // Whatever the main process left behind in its group goes with it, as with a container.
  signalGroup(instance.child, 'SIGKILL')
  c.logs?.close()
  const terminated: Extract<State, { terminated: unknown }>['terminated'] = {
    exitCode: end.exitCode,
    reason: end.reason,
    startedAt: formatTime(instance.startedAtMs),
    finishedAt: formatTime(now),
    containerID: `process://${instance.id}`,
  }
  const message =
    end.message ??
    (end.exitCode !== 0 && c.spec.terminationMessagePolicy === 'FallbackToLogsOnError'
      ? tailOf(c.logs)
      : undefined)
  if (message) terminated.message = message
  c.state = { terminated }
  c.ready = false
  c.started = false
  c.instance = undefined
  instance.markExited()
  return true
}
