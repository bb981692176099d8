/** A container's end: its exit recorded, then a restart under the pod's policy or the end of it. */
import { formatTime } from '../../../apimachinery/meta-time'
import { nextCrashDelay } from '../backoff'
import { crashLoopState, restartPolicyOf, shouldRestart } from '../restart'
import { podKey } from '../types'
import type { ContainerHost } from './container-host'
import { terminatedState } from './engine-state'
import type { Ctr, PodRec } from './pod-record'

/** Records the exit of a container that ran as `id`. */
export async function containerExited(
  host: ContainerHost,
  rec: PodRec,
  c: Ctr,
  id: string,
): Promise<void> {
  if (c.id !== id || !c.running) return
  c.running = false
  for (const w of c.probes) w.stop()
  c.probes = []
  let terminated
  try {
    terminated = terminatedState(await host.docker.getContainer(id).inspect())
  } catch {
    terminated = {
      exitCode: 137,
      reason: 'ContainerStatusUnknown',
      message: 'The container could not be located when the pod was terminated',
      finishedAt: formatTime(Date.now()),
    }
  }
  c.state = { terminated }
  host.log?.debug(
    `${podKey(rec.pod)} container ${c.name} exited with ${terminated.exitCode} (${terminated.reason})`,
  )
  afterExit(host, rec, c, Date.now())
}

/** A container ended (or never started): restarted under the pod's restart policy, backed off. */
export function afterExit(host: ContainerHost, rec: PodRec, c: Ctr, now: number): void {
  c.ready = false
  c.started = false
  const t = 'terminated' in c.state ? c.state.terminated : undefined
  if (
    !host.halted(rec) &&
    !c.ephemeral &&
    shouldRestart(restartPolicyOf(rec.pod), t?.exitCode ?? 1, c.init)
  ) {
    const next = nextCrashDelay(c.crash, now - c.startedAtMs, host.backoff)
    c.crash = next.state
    c.lastState = c.state
    if (next.delayMs > 0) {
      c.state = crashLoopState(next.delayMs, c.name, rec.pod.metadata)
      const m = rec.pod.metadata
      host.event(
        rec,
        c,
        'Warning',
        'BackOff',
        `Back-off restarting failed container ${c.name} in pod ${m.name}_${m.namespace}(${m.uid})`,
      )
    }
    host.scheduleRestart(rec, c, next.delayMs)
  } else c.finished = true
  if (!rec.stopping) host.advanceLater(rec)
  host.changed(rec.uid)
}
