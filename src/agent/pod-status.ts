/**
 * Pure: a pod's status from its containers' states, as kubelet's status manager computes it
 * (phase, the standard conditions with stable transition times, container statuses, IPs).
 */
import type { KubeObject } from '../apimachinery/types'
import type { ContainerState } from './runtime/types'
import { formatTime } from '../apimachinery/meta-time'

type State = ContainerState['state']

export interface PodCondition {
  type: string
  status: 'True' | 'False' | 'Unknown'
  lastProbeTime?: string
  lastTransitionTime?: string
  reason?: string
  message?: string
}

export interface ContainerStatus {
  name: string
  state: Partial<Record<'waiting' | 'running' | 'terminated', unknown>>
  lastState: Partial<Record<'waiting' | 'running' | 'terminated', unknown>>
  ready: boolean
  restartCount: number
  image: string
  imageID: string
  containerID?: string
  started?: boolean
}

export interface PodStatus {
  phase?: string
  conditions?: PodCondition[]
  message?: string
  reason?: string
  hostIP?: string
  hostIPs?: { ip: string }[]
  podIP?: string
  podIPs?: { ip: string }[]
  startTime?: string
  initContainerStatuses?: ContainerStatus[]
  containerStatuses?: ContainerStatus[]
  ephemeralContainerStatuses?: ContainerStatus[]
  qosClass?: string
  [field: string]: unknown
}

export interface PodStatusInput {
  pod: KubeObject
  /** the runtime's states (init and app containers); undefined before the runtime took the pod */
  containers: ContainerState[] | undefined
  hostIP: string
  podIP?: string
  /** the pod is being deleted and its containers were stopped: the phase becomes terminal */
  terminated?: boolean
  now: number
}

interface PodSpec {
  restartPolicy?: string
  containers?: { name: string; image?: string }[]
  initContainers?: { name: string; image?: string }[]
  ephemeralContainers?: { name: string; image?: string }[]
  readinessGates?: { conditionType: string }[]
}

/** The conditions this agent owns; any other condition on the pod is carried over untouched. */
const OWNED = [
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  'PodScheduled',
]

export function computePodStatus(input: PodStatusInput): PodStatus {
  const { pod, now } = input
  const spec = (pod.spec ?? {}) as PodSpec
  const previous = (pod.status ?? {}) as PodStatus
  const byName = new Map(
    (input.containers ?? []).map((c) => [
      `${c.init ? 'init' : c.ephemeral ? 'ephemeral' : 'app'}/${c.name}`,
      c,
    ]),
  )
  const initSpecs = spec.initContainers ?? []
  const appSpecs = spec.containers ?? []

  const initStatuses = initSpecs.map((c) =>
    containerStatus(c, byName.get(`init/${c.name}`), 'PodInitializing'),
  )
  const initialized = initStatuses.every((s) => terminatedExit(s.state) === 0)
  const appStatuses = appSpecs.map((c) =>
    containerStatus(
      c,
      byName.get(`app/${c.name}`),
      initialized ? 'ContainerCreating' : 'PodInitializing',
    ),
  )

  const phase = podPhase(
    spec.restartPolicy ?? 'Always',
    initStatuses,
    appStatuses,
    !!input.terminated,
  )
  const terminal = phase === 'Succeeded' || phase === 'Failed'

  const conditions: PodCondition[] = []
  const cond = (type: string, ok: boolean, reason?: string, message?: string) => {
    const status = ok ? 'True' : 'False'
    const before = (previous.conditions ?? []).find((c) => c.type === type)
    const c: PodCondition = {
      type,
      status,
      lastTransitionTime:
        before && before.status === status && before.lastTransitionTime
          ? before.lastTransitionTime
          : formatTime(now),
    }
    if (reason) c.reason = reason
    if (message) c.message = message
    conditions.push(c)
  }

  cond(
    'PodReadyToStartContainers',
    input.containers !== undefined && !(terminal && input.terminated),
  )
  if (initialized)
    cond(
      'Initialized',
      true,
      terminal && phase === 'Succeeded' && initSpecs.length ? 'PodCompleted' : undefined,
    )
  else
    cond(
      'Initialized',
      false,
      'ContainersNotInitialized',
      `containers with incomplete status: [${initStatuses
        .filter((s) => terminatedExit(s.state) !== 0)
        .map((s) => s.name)
        .join(' ')}]`,
    )

  const unready = appStatuses.filter((s) => !s.ready).map((s) => s.name)
  let containersReady: [boolean, string?, string?]
  if (phase === 'Succeeded') containersReady = [false, 'PodCompleted']
  else if (unready.length)
    containersReady = [
      false,
      'ContainersNotReady',
      `containers with unready status: [${unready.join(' ')}]`,
    ]
  else containersReady = [true]

  let ready = containersReady
  if (ready[0]) {
    for (const gate of spec.readinessGates ?? []) {
      const c = (previous.conditions ?? []).find((x) => x.type === gate.conditionType)
      if (!c) {
        ready = [
          false,
          'ReadinessGatesNotReady',
          `corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`,
        ]
        break
      }
      if (c.status !== 'True') {
        ready = [
          false,
          'ReadinessGatesNotReady',
          `the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`,
        ]
        break
      }
    }
  }
  cond('Ready', ...ready)
  cond('ContainersReady', ...containersReady)
  const scheduled = (previous.conditions ?? []).find((c) => c.type === 'PodScheduled')
  conditions.push(
    scheduled ?? { type: 'PodScheduled', status: 'True', lastTransitionTime: formatTime(now) },
  )
  for (const c of previous.conditions ?? []) if (!OWNED.includes(c.type)) conditions.push(c)

  const status: PodStatus = {
    phase,
    conditions,
    hostIP: input.hostIP,
    hostIPs: [{ ip: input.hostIP }],
    startTime: previous.startTime ?? formatTime(now),
  }
  if (input.podIP) {
    status.podIP = input.podIP
    status.podIPs = [{ ip: input.podIP }]
  }
  if (initSpecs.length) status.initContainerStatuses = initStatuses
  status.containerStatuses = appStatuses
  // Ephemeral containers are reported, but count for neither the phase nor readiness.
  const ephemeral = (spec.ephemeralContainers ?? []).map((c) => ({
    ...containerStatus(c, byName.get(`ephemeral/${c.name}`), 'ContainerCreating'),
    ready: false,
  }))
  if (ephemeral.length) status.ephemeralContainerStatuses = ephemeral
  return status
}

function containerStatus(
  spec: { name: string; image?: string },
  state: ContainerState | undefined,
  defaultWaiting: string,
): ContainerStatus {
  const image = spec.image ?? ''
  if (!state) {
    return {
      name: spec.name,
      state: { waiting: { reason: defaultWaiting } },
      lastState: {},
      ready: false,
      restartCount: 0,
      image,
      imageID: '',
      started: false,
    }
  }
  const out: ContainerStatus = {
    name: spec.name,
    state: { ...state.state },
    lastState: state.lastState ? { ...state.lastState } : {},
    ready: state.ready && 'running' in state.state,
    restartCount: state.restartCount,
    image,
    imageID:
      state.imageID ?? (state.containerID ? `${state.containerID.split('://')[0]}://${image}` : ''),
    started: state.started ?? 'running' in state.state,
  }
  if (state.containerID) out.containerID = state.containerID
  if (!('running' in state.state)) out.started = false
  return out
}

function terminatedExit(state: ContainerStatus['state']): number | undefined {
  const t = state.terminated as { exitCode?: number } | undefined
  return t ? (t.exitCode ?? 0) : undefined
}

/**
 * kubelet's getPhase: init containers gate the pod, a waiting container keeps it Pending, a
 * running one makes it Running, and when all have stopped the restart policy decides.
 */
export function podPhase(
  restartPolicy: string,
  init: ContainerStatus[],
  app: ContainerStatus[],
  terminated: boolean,
): string {
  let pendingInit = 0
  let failedInit = 0
  for (const s of init) {
    const exit = terminatedExit(s.state)
    if (exit === 0) continue
    if (exit !== undefined) failedInit++
    else if (
      s.state.waiting &&
      (s.lastState.terminated as { exitCode?: number } | undefined)?.exitCode
    )
      failedInit++
    else pendingInit++
  }
  const initDone = pendingInit === 0 && failedInit === 0
  if (!initDone) {
    if (failedInit > 0 && restartPolicy === 'Never') return 'Failed'
    if (terminated) return 'Failed'
    return 'Pending'
  }

  let running = 0
  let waiting = 0
  let stopped = 0
  let succeeded = 0
  for (const s of app) {
    if (s.state.running) running++
    else if (s.state.terminated) {
      stopped++
      if (terminatedExit(s.state) === 0) succeeded++
    } else if (s.state.waiting) {
      if (s.lastState.terminated) {
        stopped++
        if ((s.lastState.terminated as { exitCode?: number }).exitCode === 0) succeeded++
      } else waiting++
    }
  }
  if (terminated) return app.length > 0 && succeeded === app.length ? 'Succeeded' : 'Failed'
  if (waiting > 0) return 'Pending'
  if (running > 0) return 'Running'
  if (stopped > 0) {
    if (restartPolicy === 'Always') return 'Running'
    if (restartPolicy === 'OnFailure') return stopped === succeeded ? 'Succeeded' : 'Running'
    return stopped === succeeded ? 'Succeeded' : 'Failed'
  }
  return 'Pending'
}

/** JSON with sorted keys, so equal values compare equal whatever their key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v
    const sorted: Record<string, unknown> = {}
    for (const k of Object.keys(v as object).sort()) sorted[k] = (v as Record<string, unknown>)[k]
    return sorted
  })
}

/**
 * The merge patch that brings `current` to `next`: the top-level status fields that differ, or
 * undefined when nothing does (then nothing is posted).
 */
export function statusPatch(
  current: PodStatus | undefined,
  next: PodStatus,
): Partial<PodStatus> | undefined {
  const patch: Partial<PodStatus> = {}
  let changed = false
  for (const [k, v] of Object.entries(next)) {
    if (canonical(v) === canonical(current?.[k])) continue
    patch[k] = v
    changed = true
  }
  return changed ? patch : undefined
}
