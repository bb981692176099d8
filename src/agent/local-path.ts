/**
 * The node's half of the local-path provisioner. The agent watches the volumes provisioned for its
 * node (`edgeplane.io/local-path-node=<node>`) and acts on each as it is listed or changes: a live
 * volume's directory is made if missing; a volume being deleted, once no longer Bound (as
 * pv-protection), has its directory removed when its reclaim policy is Delete (kept for Retain),
 * and then the cleanup finalizer the provisioner put on it is released. A volume whose action
 * failed is tried again from the watched copy every few seconds.
 */
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { KubeObject } from '../apimachinery/types'
import { LOCAL_PATH_CLEANUP_FINALIZER, LOCAL_PATH_NODE_LABEL } from '../apis/storage/annotations'
import type { ApiClient } from './api-client'
import type { Logger } from './log'
import { isNewer } from './pod-status-report'
import { ListWatch } from './pod-watch'
import { WorkQueue } from './work-queue'
import { asRecord as rec, type Json } from '../apimachinery/json-value'

/** how often a volume whose action failed is tried again */
export const LOCAL_PATH_RETRY_MS = 3_000

/** What to do about one of this node's local-path volumes. */
export function sweepAction(pv: KubeObject): 'make' | 'remove' | 'release' | 'none' {
  if (!pv.metadata.deletionTimestamp) return 'make'
  if (!(pv.metadata.finalizers ?? []).includes(LOCAL_PATH_CLEANUP_FINALIZER)) return 'none'
  if (rec(pv.status).phase === 'Bound') return 'none'
  return rec(pv.spec).persistentVolumeReclaimPolicy === 'Delete' ? 'remove' : 'release'
}

/** The volume's directory when it lies directly under `root` (never anything else). */
export function volumeDir(pv: KubeObject, root: string): string | undefined {
  const path = rec(rec(pv.spec).local).path
  if (typeof path !== 'string') return undefined
  const full = resolve(path)
  return dirname(full) === resolve(root) ? full : undefined
}

export class LocalPathSweeper {
  private readonly volumes = new Map<string, KubeObject>()
  private readonly failed = new Set<string>()
  private readonly queue: WorkQueue
  private readonly watch: ListWatch
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly api: ApiClient,
    nodeName: string,
    private readonly root: string,
    private readonly log: Logger,
    /** a simulated node: finalizers are released, no directory is made or removed */
    private readonly simulated = false,
  ) {
    this.queue = new WorkQueue((name) => this.sync(name), 2)
    this.watch = new ListWatch(
      api,
      {
        path: '/api/v1/persistentvolumes',
        params: { labelSelector: `${LOCAL_PATH_NODE_LABEL}=${nodeName}` },
      },
      {
        replace: (items) => {
          this.volumes.clear()
          for (const pv of items) this.volumes.set(pv.metadata.name ?? '', pv)
          for (const name of this.failed) if (!this.volumes.has(name)) this.failed.delete(name)
          for (const name of this.volumes.keys()) this.queue.add(name)
        },
        event: (type, pv) => {
          const name = pv.metadata.name ?? ''
          if (type === 'DELETED') {
            this.volumes.delete(name)
            this.failed.delete(name)
            return
          }
          if (!isNewer(pv, this.volumes.get(name))) return
          this.volumes.set(name, pv)
          this.queue.add(name)
        },
      },
      log,
    )
  }

  start(): void {
    this.watch.start()
    this.timer = setInterval(
      () => {
        for (const name of this.failed) this.queue.add(name)
      },
      this.simulated ? LOCAL_PATH_RETRY_MS * 10 : LOCAL_PATH_RETRY_MS,
    )
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.watch.stop()
    this.queue.close()
  }

  private async sync(name: string): Promise<void> {
    const pv = this.volumes.get(name)
    if (!pv) return
    try {
      await this.one(pv)
      this.failed.delete(name)
    } catch (err) {
      const message = `local-path volume ${name}: ${(err as Error).message}`
      if (this.failed.has(name)) this.log.debug(message)
      else this.log.warn(message)
      this.failed.add(name)
    }
  }

  private async one(pv: KubeObject): Promise<void> {
    const dir = this.simulated ? undefined : volumeDir(pv, this.root)
    const action = sweepAction(pv)
    if (action === 'none') return
    if (action === 'make') {
      if (dir && !existsSync(dir)) {
        mkdirSync(dir, { recursive: true })
        chmodSync(dir, 0o777)
      }
      return
    }
    if (action === 'remove' && dir) {
      rmSync(dir, { recursive: true, force: true })
      this.log.info(`removed the directory of deleted volume ${pv.metadata.name}`)
    }
    const finalizers = (pv.metadata.finalizers ?? []).filter(
      (f) => f !== LOCAL_PATH_CLEANUP_FINALIZER,
    )
    await this.api.mergePatch(`/api/v1/persistentvolumes/${pv.metadata.name}`, {
      metadata: { finalizers, resourceVersion: pv.metadata.resourceVersion },
    })
  }
}
