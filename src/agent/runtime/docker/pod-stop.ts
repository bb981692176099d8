/**
 * Stopping a pod: its containers get the stop signal and the grace period, then its sandbox is
 * killed.
 */
import { podKey } from '../types'
import { containerExited } from './container-exit'
import type { ContainerHost } from './container-host'
import { quiesce, type PodRec } from './pod-record'

export async function stopPod(
  host: ContainerHost,
  rec: PodRec,
  gracePeriodSeconds: number,
): Promise<void> {
  rec.stopping = true
  quiesce(rec)
  for (const c of rec.containers) if (!c.running && !('terminated' in c.state)) c.finished = true
  host.changed(rec.uid)
  await rec.chain.catch(() => {})
  const grace = Math.max(0, Math.round(gracePeriodSeconds))
  // The engine sends the stop signal (SIGTERM), then SIGKILL once the grace period is over.
  await Promise.all(
    rec.containers
      .filter((c) => c.running && c.id)
      .map(async (c) => {
        host.log?.debug(
          `${podKey(rec.pod)}: killing container ${c.name} with a grace period of ${grace}s`,
        )
        host.event(rec, c, 'Normal', 'Killing', `Stopping container ${c.name}`)
        await host.docker
          .getContainer(c.id!)
          .stop({ t: grace })
          .catch(() => {})
        await host.run(rec, () => containerExited(host, rec, c, c.id!))
      }),
  )
  if (rec.infraId)
    await host.docker
      .getContainer(rec.infraId)
      .kill()
      .catch(() => {})
  host.changed(rec.uid)
}
