/**
 * The node's half of the local-path provisioner. Every few seconds the agent lists the volumes
 * provisioned for its node (`edgeplane.io/local-path-node=<node>`): a live volume's directory is
 * made if missing; a volume being deleted, once no longer Bound (as pv-protection), has its
 * directory removed when its reclaim policy is Delete (kept for Retain), and then the cleanup
 * finalizer the provisioner put on it is released.
 */
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { KubeObject } from '../apimachinery/types'
import { LOCAL_PATH_CLEANUP_FINALIZER, LOCAL_PATH_NODE_LABEL } from '../apis/storage/annotations'
import type { ApiClient } from './api-client'
import type { Logger } from './log'
import { asRecord as rec, type Json } from '../apimachinery/json-value'

export const LOCAL_PATH_SWEEP_MS = 3_000

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
  private timer: NodeJS.Timeout | undefined
  private running = false

  constructor(
    private readonly api: ApiClient,
    private readonly nodeName: string,
    private readonly root: string,
    private readonly log: Logger,
    /** a simulated node: finalizers are released, no directory is made or removed */
    private readonly simulated = false,
  ) {}

  start(): void {
    this.timer = setInterval(
      () => void this.sweep(),
      this.simulated ? LOCAL_PATH_SWEEP_MS * 10 : LOCAL_PATH_SWEEP_MS,
    )
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
  }

  async sweep(): Promise<void> {
    if (this.running) return
    this.running = true
    try {
      const selector = encodeURIComponent(`${LOCAL_PATH_NODE_LABEL}=${this.nodeName}`)
      const list = await this.api.get<{ items: KubeObject[] }>(
        `/api/v1/persistentvolumes?labelSelector=${selector}`,
      )
      for (const pv of list.items)
        await this.one(pv).catch((err: Error) =>
          this.log.warn(`local-path volume ${pv.metadata.name}: ${err.message}`),
        )
    } catch (err) {
      this.log.debug(`listing local-path volumes: ${(err as Error).message}`)
    } finally {
      this.running = false
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
