/** Removing this node's containers from the engine: one, all of a pod's (its sandbox last), and those no pod holds any more. */
import type Docker from 'dockerode'
import type { Logger } from '../../log'
import { INFRA_NAME } from './container-config'
import { engineMessage, isNoSuchObject } from './engine'
import { listOwnContainers } from './engine-state'

/** Removes a container; false when the engine refused (said in the log when `report`). */
export function removeContainer(
  docker: Docker,
  id: string,
  log: Logger | undefined,
  report = true,
): Promise<boolean> {
  return docker
    .getContainer(id)
    .remove({ force: true, v: true })
    .then(
      () => true,
      (err) => {
        if (isNoSuchObject(err)) return true
        if (report) log?.warn(`removing container ${id.slice(0, 12)} failed: ${engineMessage(err)}`)
        return false
      },
    )
}

/**
 * Removes every container of a pod. A container another one joined (the sandbox, or the target
 * of an ephemeral container) can only go once its dependents have, so the sandbox goes last and
 * what the engine refused is tried again after the rest.
 */
export async function removePodContainers(
  docker: Docker,
  nodeName: string,
  podUid: string,
  log: Logger | undefined,
): Promise<void> {
  try {
    const found = await listOwnContainers(docker, nodeName, podUid)
    let left = [
      ...found.filter((f) => f.container !== INFRA_NAME),
      ...found.filter((f) => f.container === INFRA_NAME),
    ].map((f) => f.id)
    for (let pass = 1; left.length; pass++) {
      const last = pass === 3
      const refused: string[] = []
      for (const id of left) if (!(await removeContainer(docker, id, log, last))) refused.push(id)
      left = last ? [] : refused
    }
  } catch (err) {
    log?.warn(`removing the containers of pod ${podUid} failed: ${engineMessage(err)}`)
  }
}

/** Removes this node's containers whose pod the agent has not held for two sweeps in a row. */
export class OrphanSweep {
  /** pod uids found on the engine without a pod at the last sweep: removed if still so at the next */
  private orphans = new Set<string>()

  constructor(
    private readonly docker: Docker,
    private readonly nodeName: string,
    private readonly held: (podUid: string) => boolean,
    private readonly log: Logger | undefined,
  ) {}

  async sweep(): Promise<void> {
    try {
      const found = await listOwnContainers(this.docker, this.nodeName)
      const unheld = new Set(found.map((f) => f.podUid).filter((uid) => !this.held(uid)))
      for (const uid of unheld) {
        if (!this.orphans.has(uid)) continue
        this.log?.info(`removing the containers of pod ${uid}: it is no longer bound to this node`)
        await removePodContainers(this.docker, this.nodeName, uid, this.log)
      }
      this.orphans = unheld
    } catch (err) {
      this.log?.debug(`listing the engine's containers failed: ${engineMessage(err)}`)
    }
  }
}
