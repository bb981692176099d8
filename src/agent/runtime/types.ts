import type { KubeObject } from '../../apimachinery/types'
import type { LogOptions } from '../../agent-protocol/log-options'

/** One container's state as the agent reports it in pod status. */
export interface ContainerState {
  name: string
  state:
    | { waiting: { reason: string; message?: string } }
    | { running: { startedAt: string } }
    | {
        terminated: {
          exitCode: number
          reason: string
          startedAt?: string
          finishedAt: string
          signal?: number
          message?: string
          containerID?: string
        }
      }
  lastState?: ContainerState['state']
  ready: boolean
  restartCount: number
  started?: boolean
  /** `<runtime>://<id>` of the current (or last) instance, once one was created */
  containerID?: string
  /** `<runtime>://<image id>` of the image the instance runs, where the runtime knows it */
  imageID?: string
  /** true for an init container (reported in `initContainerStatuses`) */
  init?: boolean
  /** true for an ephemeral container (reported in `ephemeralContainerStatuses`) */
  ephemeral?: boolean
}

/** What every runtime that runs containers keeps of one container between syncs, whatever runs it. */
export interface ContainerRecord<Spec> {
  name: string
  init: boolean
  /** added by `kubectl debug`: started once, never restarted */
  ephemeral?: boolean
  spec: Spec
  env: Record<string, string> | undefined
  configError: string | undefined
  state: ContainerState['state']
  lastState: ContainerState['state'] | undefined
  restartCount: number
  ready: boolean
  started: boolean
  containerID: string | undefined
  /** an instance ran (or a previous agent ran one): the next start is a restart */
  everStarted: boolean
}

/** The shared part of a container's record before its first instance. */
export function freshRecord<Spec extends { name: string }>(
  spec: Spec,
  init: boolean,
): ContainerRecord<Spec> {
  return {
    name: spec.name,
    init,
    spec,
    env: undefined,
    configError: undefined,
    state: { waiting: { reason: init ? 'PodInitializing' : 'ContainerCreating' } },
    lastState: undefined,
    restartCount: 0,
    ready: false,
    started: false,
    containerID: undefined,
    everStarted: false,
  }
}

/** The streams of `kubectl exec`. */
export interface ExecStreams {
  stdin?: AsyncIterable<Uint8Array>
  stdout(chunk: Uint8Array): void
  stderr(chunk: Uint8Array): void
  /** aborted when the client has gone: an attach (which never ends by itself) lets go */
  signal?: AbortSignal
  /** the client asked for a terminal (`-t`): stdout and stderr are one stream */
  tty?: boolean
  /** registers what to do with each window size the client sends (the resize channel), the last one first if any came already */
  onResize?(listener: (size: TerminalSize) => void): void
}

/** A terminal's window size, as kubectl sends it on the resize channel. */
export interface TerminalSize {
  width: number
  height: number
}

/**
 * What runs containers on a node: child processes (`process`) or nothing at all (`sim`, for
 * large simulated clusters). The agent's only side-effect module besides its API client.
 */
export interface ContainerRuntime {
  /**
   * starts (or keeps running) the pod's containers; idempotent per pod uid. `configErrors` names
   * containers that cannot be created yet (e.g. a missing ConfigMap) with the reason's message;
   * they wait with `CreateContainerConfigError` until a later sync no longer lists them.
   */
  sync(
    pod: KubeObject,
    resolvedEnv: Record<string, Record<string, string>>,
    configErrors?: Record<string, string>,
  ): Promise<void>
  /** stops the pod's containers: SIGTERM, then SIGKILL after the grace period */
  stop(podUid: string, gracePeriodSeconds: number): Promise<void>
  /** current container states of a pod (by uid), for pod status */
  status(podUid: string): ContainerState[] | undefined
  /** true while the runtime is still taking over a previous agent's containers of the pod: its status is not known yet */
  adopting?(podUid: string): boolean
  /** the container's output; with `follow`, an open stream that ends when the container does */
  logs(podUid: string, opts: LogOptions): AsyncIterable<Uint8Array>
  /** runs a command in the container's environment; resolves with its exit code */
  exec(podUid: string, container: string, command: string[], streams: ExecStreams): Promise<number>
  /** connects to the container's main process: its output from now on (and its stdin if the container keeps one open); resolves when it ends */
  attach?(podUid: string, container: string, streams: ExecStreams): Promise<number>
  /** called when any container changes state, so the agent posts status promptly */
  onChange(listener: (podUid: string) => void): void
  /**
   * The node's spec.podCIDR, for a runtime that gives each pod an address of its own: it takes
   * them only from there. The agent starts no pod on such a runtime before it has been called.
   */
  setPodCIDR?(podCIDR: string): void
  /** the pod's IP (the node's for processes, one of the node's pod CIDR per pod when simulated); also before sync, for env */
  podIP?(pod: KubeObject): string | undefined
  /**
   * the addresses a pod's ports are reached at from the node (port-forward, proxies), tried in
   * order; undefined when the runtime does not hold the pod. A runtime without it serves no ports.
   */
  portHosts?(podUid: string): string[] | undefined
  /** uids of every pod the runtime holds (running or kept for its logs) */
  podUids?(): string[]
  /** drops a stopped pod and its logs; the pod is gone from the API */
  forget?(podUid: string): void
  /** the agent is exiting: stop whatever must not outlive it */
  shutdown?(): Promise<void>
}

/** What the node agent drives: a runtime with the optional lifecycle methods present. */
export type ManagedRuntime = ContainerRuntime &
  Required<Pick<ContainerRuntime, 'podIP' | 'podUids' | 'forget' | 'shutdown'>>

/** What both runtimes keep of a container to report it. */
export interface ReportedContainer {
  name: string
  state: ContainerState['state']
  lastState?: ContainerState['state']
  ready: boolean
  restartCount: number
  containerID?: string
  init?: boolean
  ephemeral?: boolean
}

/** A container's status entry; `ready` only while it runs. */
export function reportContainer(c: ReportedContainer, started: boolean): ContainerState {
  const s: ContainerState = {
    name: c.name,
    state: c.state,
    ready: c.ready && 'running' in c.state,
    restartCount: c.restartCount,
    started,
  }
  if (c.lastState) s.lastState = c.lastState
  if (c.containerID) s.containerID = c.containerID
  if (c.init) s.init = true
  if (c.ephemeral) s.ephemeral = true
  return s
}

/** A container of a pod the runtime holds, by name; the error says which of the two is missing. */
export function findContainer<C extends { name: string }>(
  pods: Map<string, { pod: KubeObject; containers: C[] }>,
  podUid: string,
  name: string,
): C {
  const rec = pods.get(podUid)
  if (!rec) throw new Error(`pod ${podUid} is not running on this node`)
  const c = rec.containers.find((x) => x.name === name)
  if (!c) throw new Error(`container ${name} is not valid for pod ${rec.pod.metadata.name}`)
  return c
}

/** How the runtimes' log lines name a pod: `pod <namespace>/<name>`. */
export function podKey(pod: KubeObject): string {
  return `pod ${pod.metadata.namespace}/${pod.metadata.name}`
}

/** The runtime's record of a pod (by uid), made on first sight, holding the pod as last given. */
export function podRecord<R extends { pod: KubeObject }>(
  pods: Map<string, R>,
  pod: KubeObject,
  adopt: (pod: KubeObject) => R,
): R {
  const uid = pod.metadata.uid ?? ''
  let rec = pods.get(uid)
  if (!rec) {
    rec = adopt(pod)
    pods.set(uid, rec)
  }
  rec.pod = pod
  return rec
}
