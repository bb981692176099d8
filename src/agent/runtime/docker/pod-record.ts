/** The docker runtime's record of a pod and its containers (made, and quiesced), and the probes of a running container. */
import { join } from 'node:path'
import type { KubeObject } from '../../../apimachinery/types'
import { podContainers } from '../../container-env'
import type { Logger } from '../../log'
import type { CrashLoopState } from '../backoff'
import { startContainerProbes } from '../container-probes'
import type { Probe, ProbeOutcome, ProbeWorker } from '../probes'
import { freshRecord, type ContainerRecord } from '../types'
import type { DockerContainerSpec } from './container-config'
import { PodVolumes, type ApiGet } from './volumes'

export interface Ctr
  extends ContainerRecord<
    DockerContainerSpec & { readinessProbe?: Probe; livenessProbe?: Probe; startupProbe?: Probe }
  > {
  imageID: string | undefined
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
  /** steps that failed in a row (the sandbox could not be made): the retry waits longer each time */
  failures: number
}

/** A new record of a pod whose volumes live under `<stateDir>/pods/<uid>`. */
export function newPodRecord(pod: KubeObject, stateDir: string, get: ApiGet): PodRec {
  const initNames = new Set(
    ((pod.spec as { initContainers?: { name: string }[] } | undefined)?.initContainers ?? []).map(
      (c) => c.name,
    ),
  )
  const containers = podContainers(pod).map((spec) =>
    newCtr(spec as DockerContainerSpec, initNames.has(spec.name)),
  )
  const uid = pod.metadata.uid ?? ''
  return {
    uid,
    pod,
    containers,
    stopping: false,
    adopted: false,
    infraId: undefined,
    podIP: undefined,
    volumes: new PodVolumes(pod, join(stateDir, 'pods', uid), get),
    volumesReady: false,
    chain: Promise.resolve(),
    retryTimer: undefined,
    warned: new Set(),
    failures: 0,
  }
}

/** A container's record before its first instance. */
export function newCtr(spec: DockerContainerSpec, init: boolean): Ctr {
  return {
    ...freshRecord(spec, init),
    imageID: undefined,
    id: undefined,
    running: false,
    startedAtMs: 0,
    previousId: undefined,
    crash: { streak: 0 },
    pull: { streak: 0 },
    restartTimer: undefined,
    probes: [],
    finished: false,
  }
}

/** No retry, restart or probe of the pod runs any more. */
export function quiesce(rec: PodRec): void {
  if (rec.retryTimer) clearTimeout(rec.retryTimer)
  rec.retryTimer = undefined
  for (const c of rec.containers) {
    if (c.restartTimer) clearTimeout(c.restartTimer)
    c.restartTimer = undefined
    for (const w of c.probes) w.stop()
  }
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

/** Starts the container's probes against the pod IP, exec probes through the engine. */
export function startProbes(_rec: PodRec, c: Ctr, ctx: ProbeContext): void {
  const id = c.id
  const target = {
    host: ctx.host,
    ports: Object.fromEntries(
      (c.spec.ports ?? []).filter((p) => p.name).map((p) => [p.name!, p.containerPort]),
    ),
    exec: (command: string[], timeoutMs: number) => ctx.exec(c, command, timeoutMs),
  }
  startContainerProbes(c, target, c.startedAtMs, {
    current: () => c.id === id && c.running,
    changed: () => ctx.changed(),
    failed: (kind, probe, message) =>
      ctx.kill(c, probe.terminationGracePeriodSeconds, `failed its ${kind} probe (${message})`),
  })
}
