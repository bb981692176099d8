/** What the engine is asked to create for a container's next instance: its environment with the pod's IP, its volume binds, its restart count. */
import type Docker from 'dockerode'
import type { EphemeralSpec } from '../ephemeral'
import { appConfig, gracePeriod } from './container-config'
import type { Ctr, PodRec } from './pod-record'

/** The create request for `c`'s next instance and the restart count it carries, or why the container's config cannot be used. */
export function instanceConfig(
  rec: PodRec,
  c: Ctr,
  nodeName: string,
): { config: Docker.ContainerCreateOptions; restartCount: number } | { configError: string } {
  const env = { ...(c.env ?? {}) }
  for (const e of c.spec.env ?? []) {
    const path = e.valueFrom?.fieldRef?.fieldPath
    if ((path === 'status.podIP' || path === 'status.podIPs') && rec.podIP) env[e.name] = rec.podIP
  }
  let binds: string[]
  try {
    binds = rec.volumes.binds(c.spec)
  } catch (err) {
    return { configError: (err as Error).message }
  }
  const restartCount = c.everStarted ? c.restartCount + 1 : c.restartCount
  const pidOf = c.ephemeral ? targetOf(rec, c) : undefined
  return {
    config: appConfig(rec.pod, c.spec, {
      nodeName,
      infraId: rec.infraId!,
      env,
      binds,
      restartCount,
      stopTimeout: gracePeriod(rec.pod),
      pidOf,
    }),
    restartCount,
  }
}

/** The engine id of the running container an ephemeral one targets (`kubectl debug --target`), whose processes it is to see. */
function targetOf(rec: PodRec, c: Ctr): string | undefined {
  const name = (c.spec as EphemeralSpec).targetContainerName
  if (!name) return undefined
  const target = rec.containers.find((x) => x.name === name && !x.ephemeral)
  return target?.running ? target.id : undefined
}
