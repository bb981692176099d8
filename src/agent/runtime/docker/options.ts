/** What the docker runtime is built with: the engine, this node, its pod network and infra image. */
import type Docker from 'dockerode'
import type { PodEventRecorder } from '../../events'
import type { Logger } from '../../log'
import type { CrashBackoffConfig } from '../backoff'
import type { ApiGet } from './volumes'

export interface DockerRuntimeOptions {
  docker: Docker
  nodeName: string
  nodeIP: string
  /** this node's directory for pod volumes */
  stateDir: string
  /** the image of each pod's infra container; it must run something that waits forever */
  infraImage: string
  /** the command to run in the infra image when it has none of its own */
  infraCommand?: string[]
  /** the engine network pod IPs come from */
  network: string
  get: ApiGet
  backoff?: CrashBackoffConfig
  log?: Logger
  /** posts the kubelet's events about pods and containers (Pulling, Created, Started, Killing, BackOff …) */
  record?: PodEventRecorder
}
