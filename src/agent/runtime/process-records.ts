/** What the process runtime keeps of each pod and container, and the history it picks up from a pod's status. */
import type { ChildProcess } from 'node:child_process'
import type { KubeObject } from '../../apimachinery/types'
import { formatTime } from '../../apimachinery/meta-time'
import { podContainers, type ContainerSpec } from '../container-env'
import type { CrashLoopState } from './backoff'
import type { LogBuffer } from './log-buffer'
import type { Probe, ProbeWorker } from './probes'
import { lostInstance, restartPolicyOf, shouldRestart } from './restart'
import type { RunAs } from './run-as'
import { freshRecord, type ContainerRecord, type ContainerState } from './types'

type State = ContainerState['state']

export interface ContainerSpecWithProbes extends ContainerSpec {
  readinessProbe?: Probe
  livenessProbe?: Probe
  startupProbe?: Probe
  terminationMessagePolicy?: string
}

/** One run of a container's main process. */
export interface Instance {
  id: string
  child: ChildProcess | undefined
  startedAtMs: number
  exited: Promise<void>
  markExited: () => void
  done: boolean
}

export interface Container extends ContainerRecord<ContainerSpecWithProbes> {
  instance: Instance | undefined
  logs: LogBuffer | undefined
  previousLogs: LogBuffer | undefined
  crash: CrashLoopState
  restartTimer: NodeJS.Timeout | undefined
  probes: ProbeWorker[]
  execs: Set<ChildProcess>
  /** the user its processes run as (securityContext) */
  runAs: RunAs
  /** set when no restart may follow (init container done, policy says no, pod stopping) */
  finished: boolean
}

export interface Pod {
  uid: string
  pod: KubeObject
  containers: Container[]
  stopping: boolean
  killTimer: NodeJS.Timeout | undefined
  killAtMs: number | undefined
}

/** A new record; containers that ran under a previous agent continue their history. */
export function adoptPod(pod: KubeObject): Pod {
  const status = (pod.status ?? {}) as {
    containerStatuses?: PrevStatus[]
    initContainerStatuses?: PrevStatus[]
  }
  const policy = restartPolicyOf(pod)
  const initNames = new Set(
    ((pod.spec as { initContainers?: ContainerSpec[] } | undefined)?.initContainers ?? []).map(
      (c) => c.name,
    ),
  )
  const containers = podContainers(pod).map((spec): Container => {
    const init = initNames.has(spec.name)
    const c = newContainer(spec, init)
    const prev = (init ? status.initContainerStatuses : status.containerStatuses)?.find(
      (s) => s.name === spec.name,
    )
    if (prev) adoptPrevious(c, prev, policy)
    return c
  })
  return {
    uid: pod.metadata.uid ?? '',
    pod,
    containers,
    stopping: false,
    killTimer: undefined,
    killAtMs: undefined,
  }
}

/**
 * An ephemeral container: a process in the pod's directory, as the others. One a previous agent
 * started is over (its process ended with that agent): it is not run again.
 */
export function newEphemeral(pod: KubeObject, spec: ContainerSpec): Container {
  const c: Container = { ...newContainer(spec, false), ephemeral: true }
  const status = (pod.status ?? {}) as { ephemeralContainerStatuses?: PrevStatus[] }
  const prev = status.ephemeralContainerStatuses?.find((s) => s.name === spec.name)
  if (prev && (prev.state?.running || prev.state?.terminated)) {
    adoptPrevious(c, prev, 'Never')
    c.finished = true
  }
  return c
}

/** A container's record before its first instance. */
function newContainer(spec: ContainerSpecWithProbes, init: boolean): Container {
  return {
    ...freshRecord(spec, init),
    instance: undefined,
    logs: undefined,
    previousLogs: undefined,
    crash: { streak: 0 },
    restartTimer: undefined,
    probes: [],
    execs: new Set(),
    runAs: {},
    finished: false,
  }
}

interface PrevStatus {
  name: string
  state?: {
    running?: { startedAt?: string }
    terminated?: { exitCode?: number; startedAt?: string; finishedAt?: string }
    waiting?: { reason?: string }
  }
  lastState?: State | Record<string, never>
  restartCount?: number
}

/**
 * Picks up a container's history from the pod's status when the agent restarted: a finished
 * init container stays finished; an instance that was running is lost (its processes ended with
 * the old agent) and counts as a failed run; the restart policy then decides.
 */
function adoptPrevious(c: Container, prev: PrevStatus, policy: string): void {
  const now = formatTime(Date.now())
  c.restartCount = prev.restartCount ?? 0
  const hadLast = prev.lastState && Object.keys(prev.lastState).length > 0
  if (hadLast) c.lastState = prev.lastState as State
  const t = prev.state?.terminated
  if (t) {
    c.everStarted = true
    c.state = {
      terminated: {
        exitCode: t.exitCode ?? 0,
        reason: (t as { reason?: string }).reason ?? (t.exitCode ? 'Error' : 'Completed'),
        startedAt: t.startedAt,
        finishedAt: t.finishedAt ?? now,
      },
    }
    if ((c.init && t.exitCode === 0) || !shouldRestart(policy, t.exitCode ?? 0, c.init))
      c.finished = true
    return
  }
  if (prev.state?.running) {
    c.everStarted = true
    const lost = lostInstance(now, prev.state.running.startedAt)
    c.state = lost
    if (!shouldRestart(policy, 137, c.init)) c.finished = true
    else c.lastState = lost
    return
  }
  if (hadLast || c.restartCount > 0) c.everStarted = true
}
