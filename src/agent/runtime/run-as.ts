/**
 * Which user a container's processes run as, from `securityContext` (the container's over the
 * pod's): `runAsUser` and `runAsGroup` (the group defaults to the user's id), enforced with
 * `runAsNonRoot`. Switching users needs an agent running as root; a container asking for another
 * user on an agent that is not root is refused rather than run as the agent.
 */
import type { KubeObject } from '../../apimachinery/types'
import type { ContainerSpec } from '../container-env'

interface SecurityContext {
  runAsUser?: number
  runAsGroup?: number
  runAsNonRoot?: boolean
}

export interface RunAs {
  /** set when the processes switch to another user */
  uid?: number
  gid?: number
}

/** The identity to spawn with, or the CreateContainerConfigError message that stops the container. */
export function runAsFor(
  pod: KubeObject,
  container: ContainerSpec,
  agent: { uid: number; gid: number },
): RunAs | { error: string } {
  const podSc = ((pod.spec as { securityContext?: SecurityContext } | undefined)?.securityContext ??
    {}) as SecurityContext
  const sc = { ...podSc, ...((container.securityContext ?? {}) as SecurityContext) }
  const where = `(pod: "${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})", container: ${container.name})`
  const uid = sc.runAsUser ?? agent.uid
  if (sc.runAsNonRoot && uid === 0) {
    return {
      error:
        sc.runAsUser === undefined
          ? `container has runAsNonRoot and image will run as root ${where}`
          : `container's runAsUser breaks non-root policy ${where}`,
    }
  }
  if (sc.runAsUser === undefined && sc.runAsGroup === undefined) return {}
  const gid = sc.runAsGroup ?? sc.runAsUser ?? agent.gid
  if (uid === agent.uid && gid === agent.gid) return {}
  if (agent.uid !== 0)
    return {
      error: `runAsUser ${uid} / runAsGroup ${gid} needs the node agent to run as root; it runs as uid ${agent.uid}`,
    }
  return { uid, gid }
}

/** The agent's own uid and gid (0 where the platform has none). */
export function agentIdentity(): { uid: number; gid: number } {
  return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 }
}
