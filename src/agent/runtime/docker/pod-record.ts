/** The docker runtime's record of a pod and its containers, and the probes of a running container. */
import type { KubeObject } from '../../../apimachinery/types'
import type { Logger } from '../../log'
import type { CrashLoopState } from '../backoff'
import { ProbeWorker, type Probe, type ProbeKind, type ProbeOutcome } from '../probes'
import type { ContainerState } from '../types'
import type { DockerContainerSpec } from './container-config'
import type { PodVolumes } from './volumes'

type State = ContainerState['state']

export interface Ctr {
  name: string
  init: boolean
  spec: DockerContainerSpec & { readinessProbe?: Probe; livenessProbe?: Probe; startupProbe?: Probe }
  env: Record<string, string> | undefined
  configError: string | undefined
  state: State
  lastState: State | undefined
  restartCount: number
  ready: boolean
  started: boolean
  containerID: string | undefined
  imageID: string | undefined
  /** an instance was created (by this agent or the one before): the next one is a restart */
  everStarted: boolean
  /** the engine's id of the current (or last) instance */
  id: string | undefined
  running: boolean
  startedAtMs: number
  /** the instance before the current one, kept for `kubectl logs --previous` */
  previousId: string | undefined
  crash: CrashLoopState
  pull: CrashLoopState
  /** a restart (or pull retry) waiting out its back-off */
  restartTimer: NodeJS.Timeout | undefined
  probes: ProbeWorker[]
  /** no restart may follow (init container done, policy says no, pod stopping) */
  finished: boolean
}

export interface PodRec {
  uid: string
  pod: KubeObject
  containers: Ctr[]
  stopping: boolean
  /** the engine was asked for what a previous agent left of this pod */
  adopted: boolean
  infraId: string | undefined
  podIP: string | undefined
  volumes: PodVolumes
  volumesReady: boolean
  /** the pod's steps, one after the other */
  chain: Promise<void>
  retryTimer: NodeJS.Timeout | undefined
  /** pod-level warnings already posted, by reason and message */
  warned: Set<string>
}

export interface ProbeContext {
  /** where httpGet and tcpSocket probes connect: the pod's IP */
  host: string
  exec(c: Ctr, command: string[], timeoutMs: number): Promise<ProbeOutcome>
  changed(): void
  /** a liveness or startup probe failed: the instance is stopped (and restarted by policy) */
  kill(c: Ctr, grace: number | undefined, why: string): void
  log?: Logger
}

/** Starts the container's probes: startup first, then readiness and liveness, as the kubelet. */
export function startProbes(_rec: PodRec, c: Ctr, ctx: ProbeContext): void {
  const id = c.id
  const target = {
    host: ctx.host,
    ports: Object.fromEntries((c.spec.ports ?? []).filter((p) => p.name).map((p) => [p.name!, p.containerPort])),
    exec: (command: string[], timeoutMs: number) => ctx.exec(c, command, timeoutMs),
  }
  const current = () => c.id === id && c.running
  const add = (kind: ProbeKind, probe: Probe, onResult: (ok: boolean, message: string) => void) => {
    const w = new ProbeWorker(kind, probe, target, (ok, message) => current() && onResult(ok, message), c.startedAtMs)
    c.probes.push(w)
    w.start()
  }
  const afterStarted = () => {
    c.started = true
    if (c.spec.readinessProbe && !c.init) {
      add('readiness', c.spec.readinessProbe, (ok) => {
        c.ready = ok
        ctx.changed()
      })
    } else c.ready = !c.init
    if (c.spec.livenessProbe && !c.init) {
      add('liveness', c.spec.livenessProbe, (ok, message) => {
        if (!ok) ctx.kill(c, c.spec.livenessProbe?.terminationGracePeriodSeconds, `failed its liveness probe (${message})`)
      })
    }
    ctx.changed()
  }
  if (c.spec.startupProbe && !c.init) {
    add('startup', c.spec.startupProbe, (ok, message) => {
      if (ok) return afterStarted()
      ctx.kill(c, c.spec.startupProbe?.terminationGracePeriodSeconds, `failed its startup probe (${message})`)
    })
  } else afterStarted()
}
