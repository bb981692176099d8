/**
 * After an agent restart: the containers a previous agent left on the engine for a pod become the
 * pod's current and previous instances again (same ids, restart counts, states), so nothing that
 * runs is started twice. A pod whose infra container is gone starts afresh, counting restarts on.
 */
import type Docker from 'dockerode'
import { restartPolicyOf, shouldRestart } from '../restart'
import { INFRA_NAME } from './container-config'
import { containerIP, listOwnContainers, terminatedState } from './engine-state'
import type { Ctr, PodRec } from './pod-record'
import { formatTime } from '../../../apimachinery/meta-time'

/** Fills the record from the engine; true when the pod's sandbox was running and was taken over. */
export async function adoptPod(
  docker: Docker,
  nodeName: string,
  rec: PodRec,
  hooks: { remove(id: string): Promise<void>; running(c: Ctr, id: string): void },
): Promise<boolean> {
  const found = await listOwnContainers(docker, nodeName, rec.uid)
  const liveInfra = found.find((f) => f.container === INFRA_NAME && f.running)
  if (!liveInfra) {
    // Without its sandbox no container of the pod can go on.
    for (const f of found) {
      const c = rec.containers.find((x) => x.name === f.container)
      if (c) {
        c.restartCount = Math.max(c.restartCount, f.restartCount + 1)
        c.everStarted = false
      }
      await hooks.remove(f.id)
    }
    return false
  }
  rec.infraId = liveInfra.id
  rec.podIP = containerIP(await docker.getContainer(liveInfra.id).inspect())
  for (const c of rec.containers) {
    const mine = found
      .filter((f) => f.container === c.name)
      .sort((a, b) => b.restartCount - a.restartCount)
    const [latest, previous] = mine
    for (const old of mine.slice(2)) await hooks.remove(old.id)
    if (!latest) continue
    const info = await docker.getContainer(latest.id).inspect()
    c.restartCount = latest.restartCount
    c.everStarted = true
    c.id = latest.id
    c.containerID = `docker://${latest.id}`
    c.imageID = `docker://${info.Image}`
    if (previous) {
      c.previousId = previous.id
      c.lastState = {
        terminated: terminatedState(await docker.getContainer(previous.id).inspect()),
      }
    }
    if (info.State.Running) {
      c.running = true
      c.startedAtMs = Date.parse(info.State.StartedAt) || Date.now()
      c.state = { running: { startedAt: formatTime(c.startedAtMs) } }
      hooks.running(c, latest.id)
    } else {
      const t = terminatedState(info)
      c.state = { terminated: t }
      if (
        c.ephemeral ||
        (c.init && t.exitCode === 0) ||
        !shouldRestart(restartPolicyOf(rec.pod), t.exitCode, c.init)
      )
        c.finished = true
      else c.lastState = c.state
    }
  }
  return true
}
