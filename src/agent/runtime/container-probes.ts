/** Starting a container's probes as the kubelet does: startup first, then readiness and liveness. */
import { ProbeWorker, type Probe, type ProbeKind, type ProbeTarget } from './probes'

/** What the probes of one container instance read and set. */
export interface ProbedContainer {
  init: boolean
  spec: { readinessProbe?: Probe; livenessProbe?: Probe; startupProbe?: Probe }
  started: boolean
  ready: boolean
  probes: ProbeWorker[]
}

export interface ProbeHooks {
  /** the instance the probes were started for is still the running one */
  current(): boolean
  /** started or ready changed */
  changed(): void
  /** a liveness or startup probe failed: the instance is to be stopped (and restarted by policy) */
  failed(kind: 'liveness' | 'startup', probe: Probe, message: string): void
}

/**
 * Starts the probes of a container instance: `started` once the startup probe succeeds (at once
 * without one); then readiness sets `ready` (ready at once without one; init containers never are),
 * and liveness failures are reported. Init containers run no probes.
 */
export function startContainerProbes(
  c: ProbedContainer,
  target: ProbeTarget,
  startedAtMs: number,
  hooks: ProbeHooks,
): void {
  const add = (kind: ProbeKind, probe: Probe, onResult: (ok: boolean, message: string) => void) => {
    const w = new ProbeWorker(
      kind,
      probe,
      target,
      (ok, message) => hooks.current() && onResult(ok, message),
      startedAtMs,
    )
    c.probes.push(w)
    w.start()
  }
  const afterStarted = () => {
    c.started = true
    const readiness = c.spec.readinessProbe
    if (readiness && !c.init) {
      add('readiness', readiness, (ok) => {
        c.ready = ok
        hooks.changed()
      })
    } else c.ready = !c.init
    const liveness = c.spec.livenessProbe
    if (liveness && !c.init)
      add('liveness', liveness, (ok, message) => ok || hooks.failed('liveness', liveness, message))
    hooks.changed()
  }
  const startup = c.spec.startupProbe
  if (startup && !c.init)
    add('startup', startup, (ok, message) =>
      ok ? afterStarted() : hooks.failed('startup', startup, message),
    )
  else afterStarted()
}
