/**
 * What the engine holds for this node: the containers this agent created (found by their
 * labels, so nothing else on the engine is ever touched) and their states in pod-status terms.
 */
import type Docker from 'dockerode'
import type { ContainerState } from '../types'
import {
  INFRA_NAME,
  LABEL_CONTAINER,
  LABEL_MANAGED,
  LABEL_NODE,
  LABEL_POD_UID,
  LABEL_RESTART_COUNT,
  MANAGED_BY,
} from './container-config'
import { formatTime } from '../../../apimachinery/meta-time'

type Terminated = Extract<ContainerState['state'], { terminated: unknown }>['terminated']

export interface FoundContainer {
  id: string
  podUid: string
  /** the pod's container name, `POD` for the infra container */
  container: string
  restartCount: number
  running: boolean
}

/** This node's containers on the engine, running or not, optionally of one pod only. */
export async function listOwnContainers(
  docker: Docker,
  nodeName: string,
  podUid?: string,
): Promise<FoundContainer[]> {
  const label = [`${LABEL_MANAGED}=${MANAGED_BY}`, `${LABEL_NODE}=${nodeName}`]
  if (podUid) label.push(`${LABEL_POD_UID}=${podUid}`)
  const list = await docker.listContainers({ all: true, filters: { label } })
  // Infra containers last: the engine removes a network namespace's holder only after its joiners.
  const infraLast = (c: Docker.ContainerInfo) => (c.Labels[LABEL_CONTAINER] === INFRA_NAME ? 1 : 0)
  return list
    .sort((a, b) => infraLast(a) - infraLast(b))
    .map((c) => ({
      id: c.Id,
      podUid: c.Labels[LABEL_POD_UID] ?? '',
      container: c.Labels[LABEL_CONTAINER] ?? '',
      restartCount: Number(c.Labels[LABEL_RESTART_COUNT] ?? 0) || 0,
      running: c.State === 'running',
    }))
}

/** An engine timestamp (RFC 3339 with nanoseconds) as metav1.Time, or undefined when unset. */
export function engineTime(t: string | undefined): string | undefined {
  if (!t || t.startsWith('0001-')) return undefined
  const ms = Date.parse(t)
  return Number.isFinite(ms) ? formatTime(ms) : undefined
}

/** A stopped container's terminated state as the kubelet reports it: exit code, Completed / Error / OOMKilled. */
export function terminatedState(info: Docker.ContainerInspectInfo): Terminated {
  const s = info.State
  const exitCode = s.ExitCode ?? 0
  const reason = s.OOMKilled ? 'OOMKilled' : exitCode === 0 ? 'Completed' : 'Error'
  const out: Terminated = {
    exitCode,
    reason,
    finishedAt: engineTime(s.FinishedAt) ?? formatTime(Date.now()),
    containerID: `docker://${info.Id}`,
  }
  const started = engineTime(s.StartedAt)
  if (started) out.startedAt = started
  if (s.Error) {
    out.reason = exitCode === 0 ? out.reason : 'StartError'
    out.message = s.Error
  }
  return out
}

/** The pod IP the engine gave the infra container (its first network's address). */
export function containerIP(info: Docker.ContainerInspectInfo): string | undefined {
  const ns = info.NetworkSettings as Docker.ContainerInspectInfo['NetworkSettings'] & {
    IPAddress?: string
  }
  if (ns?.IPAddress) return ns.IPAddress
  for (const n of Object.values(ns?.Networks ?? {})) if (n.IPAddress) return n.IPAddress
  return undefined
}
