/** What the simulated runtime keeps of each pod and container, and what it picks up from a pod's status. */
import type { KubeObject } from '../../apimachinery/types'
import { formatTime } from '../../apimachinery/meta-time'
import type { CrashLoopState } from './backoff'
import type { LogBuffer } from './log-buffer'
import type { ContainerState } from './types'

export type State = ContainerState['state']

export interface Container {
  name: string
  init: boolean
  ephemeral?: boolean
  state: State
  lastState: State | undefined
  restartCount: number
  ready: boolean
  containerID: string | undefined
  startedAtMs: number | undefined
  everStarted: boolean
  timer: NodeJS.Timeout | undefined
  crash: CrashLoopState
  logs: LogBuffer | undefined
  previousLogs: LogBuffer | undefined
  configError: string | undefined
  finished: boolean
}

export interface Pod {
  uid: string
  pod: KubeObject
  containers: Container[]
  stopped: boolean
}

/** A container's status as the pod's status last reported it. */
export interface PrevStatus {
  name: string
  containerID?: string
  state?: {
    running?: { startedAt?: string }
    terminated?: { exitCode?: number; reason?: string; startedAt?: string; finishedAt?: string }
  }
  lastState?: State | Record<string, never>
  restartCount?: number
}

/** A container's record before its first (simulated) start. */
export function freshContainer(name: string, init: boolean): Container {
  return {
    name,
    init,
    state: { waiting: { reason: init ? 'PodInitializing' : 'ContainerCreating' } },
    lastState: undefined,
    restartCount: 0,
    ready: false,
    containerID: undefined,
    startedAtMs: undefined,
    everStarted: false,
    timer: undefined,
    crash: { streak: 0 },
    logs: undefined,
    previousLogs: undefined,
    configError: undefined,
    finished: false,
  }
}

/**
 * Picks up a container's state from the pod's status after an agent restart; true when it is
 * running (its logs and scripted exit are the runtime's to set up).
 */
export function resumeContainer(c: Container, prev: PrevStatus): boolean {
  c.restartCount = prev.restartCount ?? 0
  if (prev.lastState && Object.keys(prev.lastState).length) c.lastState = prev.lastState as State
  c.containerID = prev.containerID
  if (prev.state?.running) {
    const startedAtMs = Date.parse(prev.state.running.startedAt ?? '') || Date.now()
    c.everStarted = true
    c.startedAtMs = startedAtMs
    c.state = { running: { startedAt: formatTime(startedAtMs) } }
    c.ready = !c.init && !c.ephemeral
    return true
  } else if (prev.state?.terminated) {
    c.everStarted = true
    c.state = {
      terminated: {
        ...prev.state.terminated,
        exitCode: prev.state.terminated.exitCode ?? 0,
        reason: prev.state.terminated.reason ?? 'Completed',
        finishedAt: prev.state.terminated.finishedAt ?? formatTime(Date.now()),
      },
    }
    c.finished = true
  } else if (c.restartCount > 0) c.everStarted = true
  return false
}
