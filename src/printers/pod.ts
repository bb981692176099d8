/**
 * The Pod table: the Ready count, the one-word Status kubectl users read (Running,
 * ContainerCreating, CrashLoopBackOff, Init:0/1, Completed, Terminating, ...) and Restarts with the
 * time of the last restart, all derived from status the way upstream's printer derives them.
 */
import type { KubeObject } from '../apimachinery/types'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'
import { humanDuration } from './duration'
import { count, list, orNone } from './format'
import { parseTime } from '../apimachinery/meta-time'

interface ContainerState {
  waiting?: { reason?: string }
  running?: { startedAt?: string }
  terminated?: { reason?: string; exitCode?: number; signal?: number; finishedAt?: string }
}

interface ContainerStatus {
  name?: string
  ready?: boolean
  started?: boolean
  restartCount?: number
  state?: ContainerState
  lastState?: ContainerState
}

interface PodCondition {
  type?: string
  status?: string
  reason?: string
}

interface Pod extends KubeObject {
  spec?: {
    nodeName?: string
    containers?: Array<{ name?: string }>
    initContainers?: Array<{ name?: string; restartPolicy?: string }>
    readinessGates?: Array<{ conditionType?: string }>
  }
  status?: {
    phase?: string
    reason?: string
    podIP?: string
    podIPs?: Array<{ ip?: string }>
    nominatedNodeName?: string
    conditions?: PodCondition[]
    initContainerStatuses?: ContainerStatus[]
    containerStatuses?: ContainerStatus[]
  }
}

/** Set by the node lifecycle controller on pods of a node that stopped reporting. */
const NODE_LOST_REASON = 'NodeLost'

/** Tracks the latest `lastState.terminated.finishedAt` among the containers seen. */
class LastRestart {
  at: number | undefined
  see(status: ContainerStatus): void {
    const finished = parseTime(status.lastState?.terminated?.finishedAt)
    if (finished !== undefined && (this.at === undefined || finished > this.at)) this.at = finished
  }
}

function conditionTrue(conditions: PodCondition[], type: string): boolean {
  return conditions.some((c) => c.type === type && c.status === 'True')
}

/** A terminated container with no reason is described by its signal, else its exit code. */
function terminatedText(t: NonNullable<ContainerState['terminated']>): string {
  if (t.signal) return `Signal:${t.signal}`
  return `ExitCode:${count(t.exitCode)}`
}

export interface PodSummary {
  ready: string
  status: string
  restarts: string
}

export function summarizePod(pod: Pod, now: number): PodSummary {
  const spec = pod.spec ?? {}
  const status = pod.status ?? {}
  const conditions = list(status.conditions)
  const phase = status.phase ?? ''
  let reason = status.reason || phase
  if (conditions.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) {
    reason = 'SchedulingGated'
  }

  // Sidecars (init containers with restartPolicy Always) keep running beside the app containers,
  // so they count toward the Ready total and their restarts stay visible after initialization.
  const initSpecs = list(spec.initContainers)
  const sidecars = new Set(
    initSpecs.filter((c) => c.restartPolicy === 'Always').map((c) => c.name ?? ''),
  )
  const total = list(spec.containers).length + sidecars.size
  let ready = 0
  let restarts = 0
  let sidecarRestarts = 0
  let lastRestart = new LastRestart()
  const lastSidecarRestart = new LastRestart()

  let initializing = false
  const initStatuses = list(status.initContainerStatuses)
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]
    const isSidecar = sidecars.has(c.name ?? '')
    restarts += count(c.restartCount)
    lastRestart.see(c)
    if (isSidecar) {
      sidecarRestarts += count(c.restartCount)
      lastSidecarRestart.see(c)
    }
    const terminated = c.state?.terminated
    const waiting = c.state?.waiting
    if (terminated && count(terminated.exitCode) === 0) continue
    if (isSidecar && c.started === true) {
      if (c.ready) ready++
      continue
    }
    // The first init container that has not finished decides the status.
    if (terminated) {
      reason = terminated.reason
        ? `Init:${terminated.reason}`
        : `Init:${terminatedText(terminated)}`
    } else if (waiting?.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`
    } else {
      reason = `Init:${i}/${initSpecs.length}`
    }
    initializing = true
    break
  }

  if (!initializing || conditionTrue(conditions, 'Initialized')) {
    // Restarts of init containers that ran to completion no longer matter once the pod is up.
    restarts = sidecarRestarts
    lastRestart = lastSidecarRestart
    let hasRunning = false
    const statuses = list(status.containerStatuses)
    // Walked backwards so that the first container's state wins when several explain the pod.
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]
      restarts += count(c.restartCount)
      lastRestart.see(c)
      const terminated = c.state?.terminated
      if (c.state?.waiting?.reason) {
        reason = c.state.waiting.reason
      } else if (terminated?.reason) {
        reason = terminated.reason
      } else if (terminated) {
        reason = terminatedText(terminated)
      } else if (c.ready && c.state?.running) {
        hasRunning = true
        ready++
      }
    }
    // One container finished while another still runs: the pod as a whole is still running.
    if (reason === 'Completed' && hasRunning) {
      reason = conditionTrue(conditions, 'Ready') ? 'Running' : 'NotReady'
    }
  }

  if (pod.metadata?.deletionTimestamp) {
    if (status.reason === NODE_LOST_REASON) reason = 'Unknown'
    else if (phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating'
  }

  let restartText = String(restarts)
  if (restarts !== 0 && lastRestart.at !== undefined) {
    restartText = `${restarts} (${humanDuration(now - lastRestart.at)} ago)`
  }
  return { ready: `${ready}/${total}`, status: reason, restarts: restartText }
}

function readinessGates(pod: Pod): string {
  const gates = list(pod.spec?.readinessGates)
  if (gates.length === 0) return '<none>'
  const conditions = list(pod.status?.conditions)
  let passed = 0
  for (const gate of gates) {
    const condition = conditions.find((c) => c.type === gate.conditionType)
    if (condition?.status === 'True') passed++
  }
  return `${passed}/${gates.length}`
}

export const podPrinter: Printer = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column(
      'Restarts',
      'string',
      'The number of times the containers in this pod have been restarted, and how long ago the last restart was.',
    ),
    ageColumn,
    column('IP', 'string', 'The first IP address allocated to the pod.', 1),
    column('Node', 'string', 'The node the pod is scheduled to.', 1),
    column('Nominated Node', 'string', 'The node the scheduler nominated for preemption.', 1),
    column(
      'Readiness Gates',
      'string',
      'Readiness gate conditions that are True, of all gates.',
      1,
    ),
  ],
  cells(obj, now) {
    const pod = obj as Pod
    const summary = summarizePod(pod, now)
    const status = pod.status ?? {}
    const ip = list(status.podIPs)[0]?.ip || status.podIP
    return [
      objectName(pod),
      summary.ready,
      summary.status,
      summary.restarts,
      objectAge(pod, now),
      orNone(ip),
      orNone(pod.spec?.nodeName),
      orNone(status.nominatedNodeName),
      readinessGates(pod),
    ]
  },
}
