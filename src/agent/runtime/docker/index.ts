/**
 * The docker runtime as the agent's command line builds it: find the engine's socket, read its
 * version for the Node, and pick the directory pod volumes live in.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { PodEventRecorder } from '../../events'
import type { Logger } from '../../log'
import { connectEngine, engineInfo } from './engine'
import { findSocket, socketCandidates } from './socket'
import { nodeImages } from './images'
import { DockerRuntime } from './runtime'
import type { ApiGet } from './volumes'

/** kubelet's default infra ("pause") image. */
export const DEFAULT_INFRA_IMAGE = 'registry.k8s.io/pause:3.10'
/** The network pods get their IPs from unless told otherwise: the engine's default bridge. */
export const DEFAULT_NETWORK = 'bridge'

export interface DockerSetup {
  runtime: DockerRuntime
  socket: string
  /** for nodeInfo.containerRuntimeVersion, e.g. "podman://4.3.1" */
  runtimeVersion: string
  /** the images on the engine, for the Node's status.images */
  images(): Promise<{ names: string[]; sizeBytes: number }[]>
}

/** Where pod volumes live: $EDGEPLANE_AGENT_STATE_DIR, /var/lib/edgeplane-agent as root, else ~/.local/state/edgeplane-agent. */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.EDGEPLANE_AGENT_STATE_DIR) return env.EDGEPLANE_AGENT_STATE_DIR
  if (process.getuid?.() === 0) return '/var/lib/edgeplane-agent'
  return join(homedir(), '.local', 'state', 'edgeplane-agent')
}

export class NoEngineError extends Error {}

export async function createDockerRuntime(opts: {
  socket?: string
  nodeName: string
  nodeIP: string
  infraImage?: string
  network?: string
  get: ApiGet
  record?: PodEventRecorder
  log?: Logger
}): Promise<DockerSetup> {
  const socket = await findSocket(opts.socket)
  if (!socket) {
    const tried = opts.socket ? [opts.socket] : socketCandidates()
    throw new NoEngineError(
      `no container engine answers on ${tried.join(', ')}: start Docker, or Podman's service (podman system service --time=0 unix:///run/podman/podman.sock), or name the socket with --container-socket`,
    )
  }
  const docker = connectEngine(socket)
  const info = await engineInfo(docker)
  const runtime = new DockerRuntime({
    docker,
    nodeName: opts.nodeName,
    nodeIP: opts.nodeIP,
    stateDir: join(defaultStateDir(), opts.nodeName),
    infraImage: opts.infraImage ?? DEFAULT_INFRA_IMAGE,
    network: opts.network ?? DEFAULT_NETWORK,
    get: opts.get,
    record: opts.record,
    log: opts.log,
  })
  return { runtime, socket, runtimeVersion: info.runtimeVersion, images: () => nodeImages(docker) }
}
