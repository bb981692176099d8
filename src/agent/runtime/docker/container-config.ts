/**
 * Pure: the engine's create options for a pod's infra container and for each of its containers,
 * from the pod spec, as the kubelet's docker integration set them (names, labels, command and
 * args, environment, user, read-only root, limits, mounts, ports, network namespace).
 */
import type Docker from 'dockerode'
import type { KubeObject } from '../../../apimachinery/types'
import { expandVars, type ContainerSpec } from '../../container-env'
import { parseBytes, parseCpuMillis } from '../../../apimachinery/quantity'

export const LABEL_MANAGED = 'io.edgeplane.managed-by'
export const MANAGED_BY = 'edgeplane-agent'
export const LABEL_NODE = 'io.edgeplane.node'
export const LABEL_POD_UID = 'io.kubernetes.pod.uid'
export const LABEL_POD_NAME = 'io.kubernetes.pod.name'
export const LABEL_POD_NAMESPACE = 'io.kubernetes.pod.namespace'
export const LABEL_CONTAINER = 'io.kubernetes.container.name'
export const LABEL_RESTART_COUNT = 'io.kubernetes.container.restartCount'
/** the container name of a pod's infra container, as dockershim named it */
export const INFRA_NAME = 'POD'

export interface SecurityContext {
  runAsUser?: number
  runAsGroup?: number
  readOnlyRootFilesystem?: boolean
  privileged?: boolean
}

export interface DockerContainerSpec extends ContainerSpec {
  imagePullPolicy?: string
  securityContext?: SecurityContext
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean; subPath?: string }[]
  stdin?: boolean
  stdinOnce?: boolean
  tty?: boolean
  ports?: {
    name?: string
    containerPort: number
    protocol?: string
    hostPort?: number
    hostIP?: string
  }[]
}

interface PodSpec {
  hostNetwork?: boolean
  hostname?: string
  terminationGracePeriodSeconds?: number
  securityContext?: SecurityContext
  containers?: DockerContainerSpec[]
  initContainers?: DockerContainerSpec[]
}

const specOf = (pod: KubeObject) => (pod.spec ?? {}) as PodSpec

/** The labels every container of a pod carries: who made it, for which node, pod and container. */
export function podLabels(
  pod: KubeObject,
  nodeName: string,
  container: string,
  restartCount: number,
): Record<string, string> {
  return {
    [LABEL_MANAGED]: MANAGED_BY,
    [LABEL_NODE]: nodeName,
    [LABEL_POD_UID]: pod.metadata.uid ?? '',
    [LABEL_POD_NAME]: pod.metadata.name ?? '',
    [LABEL_POD_NAMESPACE]: pod.metadata.namespace ?? 'default',
    [LABEL_CONTAINER]: container,
    [LABEL_RESTART_COUNT]: String(restartCount),
  }
}

/** dockershim's container name: k8s_<container>_<pod>_<namespace>_<uid>_<attempt>. */
export function containerName(pod: KubeObject, container: string, attempt: number): string {
  return `k8s_${container}_${pod.metadata.name}_${pod.metadata.namespace ?? 'default'}_${pod.metadata.uid}_${attempt}`
}

/** imagePullPolicy as defaulted by the API: Always for `:latest` or no tag, IfNotPresent otherwise. */
export function pullPolicy(spec: DockerContainerSpec): string {
  if (spec.imagePullPolicy) return spec.imagePullPolicy
  const image = spec.image ?? ''
  if (image.includes('@')) return 'IfNotPresent'
  const lastPart = image.slice(image.lastIndexOf('/') + 1)
  const tag = lastPart.includes(':') ? lastPart.slice(lastPart.indexOf(':') + 1) : ''
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent'
}

/** Every hostPort the pod's containers ask for, as the infra container's port bindings (it owns the network). */
export function hostPorts(pod: KubeObject): {
  exposed: Record<string, object>
  bindings: Record<string, { HostPort: string; HostIp?: string }[]>
} {
  const exposed: Record<string, object> = {}
  const bindings: Record<string, { HostPort: string; HostIp?: string }[]> = {}
  if (specOf(pod).hostNetwork) return { exposed, bindings }
  for (const c of [...(specOf(pod).initContainers ?? []), ...(specOf(pod).containers ?? [])]) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort) continue
      const key = `${p.containerPort}/${(p.protocol ?? 'TCP').toLowerCase()}`
      exposed[key] = {}
      const binding: { HostPort: string; HostIp?: string } = { HostPort: String(p.hostPort) }
      if (p.hostIP) binding.HostIp = p.hostIP
      ;(bindings[key] ??= []).push(binding)
    }
  }
  return { exposed, bindings }
}

export interface InfraOptions {
  image: string
  /** the image's own command when it has none (e.g. a busybox image): something that waits forever */
  command?: string[]
  nodeName: string
  /** the engine network the pod's IP comes from */
  network: string
  dnsServers?: string[]
}

/** The infra container: holds the pod's network namespace (and its host ports) for the pod's life. */
export function infraConfig(pod: KubeObject, opts: InfraOptions): Docker.ContainerCreateOptions {
  const spec = specOf(pod)
  const ports = hostPorts(pod)
  const hostNetwork = !!spec.hostNetwork
  const config: Docker.ContainerCreateOptions = {
    name: containerName(pod, INFRA_NAME, 0),
    Image: opts.image,
    Labels: podLabels(pod, opts.nodeName, INFRA_NAME, 0),
    ExposedPorts: ports.exposed,
    HostConfig: {
      NetworkMode: hostNetwork ? 'host' : opts.network,
      PortBindings: ports.bindings,
      RestartPolicy: { Name: 'no' },
    },
  }
  if (!hostNetwork) config.Hostname = (spec.hostname ?? pod.metadata.name ?? '').slice(0, 63)
  if (opts.command) config.Cmd = opts.command
  return config
}

export interface AppOptions {
  nodeName: string
  infraId: string
  env: Record<string, string>
  /** bind mounts in the engine's "host:container[:ro]" form */
  binds: string[]
  restartCount: number
  /** the pod's grace period, the engine's stop timeout */
  stopTimeout?: number
  /** the container whose process namespace this one joins (an ephemeral container's target) */
  pidOf?: string
}

/** One container of the pod, joined to the infra container's network namespace. */
export function appConfig(
  pod: KubeObject,
  spec: DockerContainerSpec,
  opts: AppOptions,
): Docker.ContainerCreateOptions {
  const podSpec = specOf(pod)
  const sc = { ...(podSpec.securityContext ?? {}), ...(spec.securityContext ?? {}) }
  const expand = (a: string) => expandVars(a, opts.env)
  const config: Docker.ContainerCreateOptions = {
    name: containerName(pod, spec.name, opts.restartCount),
    Image: spec.image,
    Labels: podLabels(pod, opts.nodeName, spec.name, opts.restartCount),
    Env: Object.entries(opts.env).map(([k, v]) => `${k}=${v}`),
    HostConfig: {
      NetworkMode: `container:${opts.infraId}`,
      ...(opts.pidOf ? { PidMode: `container:${opts.pidOf}` } : {}),
      Binds: opts.binds,
      RestartPolicy: { Name: 'no' },
      ReadonlyRootfs: !!spec.securityContext?.readOnlyRootFilesystem,
      Privileged: !!spec.securityContext?.privileged,
      ...resourceConfig(spec),
    },
  }
  // command replaces the image's entrypoint and drops its default args; args replace only those.
  if (spec.command?.length) {
    config.Entrypoint = spec.command.map(expand)
    config.Cmd = (spec.args ?? []).map(expand)
  } else if (spec.args?.length) config.Cmd = spec.args.map(expand)
  if (spec.workingDir) config.WorkingDir = spec.workingDir
  // `stdin: true` keeps the process's stdin open for `kubectl attach -i`.
  if (spec.stdin)
    Object.assign(config, { OpenStdin: true, StdinOnce: !!spec.stdinOnce, AttachStdin: true })
  // `tty: true` gives the process a terminal (`kubectl run -it`, `kubectl debug -it`).
  if (spec.tty) config.Tty = true
  if (sc.runAsUser !== undefined)
    config.User =
      sc.runAsGroup !== undefined ? `${sc.runAsUser}:${sc.runAsGroup}` : String(sc.runAsUser)
  if (opts.stopTimeout !== undefined) config.StopTimeout = opts.stopTimeout
  return config
}

/** limits.memory → Memory, limits.cpu → NanoCpus (a CFS quota), requests.cpu → CpuShares, as the kubelet maps them. */
export function resourceConfig(spec: ContainerSpec): {
  Memory?: number
  NanoCpus?: number
  CpuShares?: number
} {
  const out: { Memory?: number; NanoCpus?: number; CpuShares?: number } = {}
  const q = (v: string | number | undefined, parse: (v: string | number) => number) => {
    if (v === undefined) return undefined
    try {
      return parse(v)
    } catch {
      return undefined
    }
  }
  const memory = q(spec.resources?.limits?.memory, parseBytes)
  if (memory && memory > 0) out.Memory = memory
  const cpuMillis = q(spec.resources?.limits?.cpu, parseCpuMillis)
  if (cpuMillis && cpuMillis > 0) out.NanoCpus = cpuMillis * 1e6
  const requestMillis = q(spec.resources?.requests?.cpu, parseCpuMillis) ?? cpuMillis
  if (requestMillis && requestMillis > 0)
    out.CpuShares = Math.max(2, Math.floor((requestMillis * 1024) / 1000))
  return out
}

/** The pod's grace period (the spec's, 30 s by default). */
export function gracePeriod(pod: KubeObject): number {
  return Math.max(0, specOf(pod).terminationGracePeriodSeconds ?? 30)
}

export function isHostNetwork(pod: KubeObject): boolean {
  return !!specOf(pod).hostNetwork
}
