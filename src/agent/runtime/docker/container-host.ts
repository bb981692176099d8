/** What a pod's container steps (start, exit) need of the runtime that runs them. */
import type Docker from 'dockerode'
import type { EventType } from '../../events'
import type { Logger } from '../../log'
import type { CrashBackoffConfig } from '../backoff'
import type { Ctr, PodRec } from './pod-record'

export interface ContainerHost {
  docker: Docker
  backoff: CrashBackoffConfig
  nodeName: string
  log?: Logger
  event(rec: PodRec, c: Ctr | undefined, type: EventType, reason: string, message: string): void
  changed(uid: string): void
  /** Runs one step of the pod's life after the ones queued before it. */
  run(rec: PodRec, step: () => Promise<void> | void): Promise<void>
  /** Runs the pod's next steps (after the ones queued). */
  advanceLater(rec: PodRec): void
  /** The pod is being stopped, or the agent is shutting down: nothing restarts. */
  halted(rec: PodRec): boolean
  /** Removes a container; false when the engine refused. */
  remove(id: string): Promise<boolean>
  /** Starts the container again after `delayMs`. */
  scheduleRestart(rec: PodRec, c: Ctr, delayMs: number): void
  /** The container runs: its end is awaited and its probes started. */
  running(rec: PodRec, c: Ctr, id: string): void
}
