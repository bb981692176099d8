import { chownSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * Pods' own working directories, `<root>/<pod uid>`, as kubelet keeps /var/lib/kubelet/pods/<uid>:
 * a container with no `workingDir` starts in its pod's directory, never in the agent's.
 */
export class PodDirs {
  constructor(private readonly root: string) {}

  /**
   * The pod's directory, created (owner-only) on first use; given to `owner` when its containers
   * run as another user. The root is traversable (0711) so such a user can reach its own directory.
   */
  dirOf(podUid: string, owner: { uid?: number; gid?: number } = {}): string {
    if (!/^[A-Za-z0-9-]+$/.test(podUid))
      throw new Error(`pod uid "${podUid}" cannot name a directory`)
    mkdirSync(this.root, { recursive: true, mode: 0o711 })
    const dir = join(this.root, podUid)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    if (owner.uid !== undefined) chownSync(dir, owner.uid, owner.gid ?? owner.uid)
    return dir
  }

  /** Why user `uid` could not reach `dir` (a parent it may not pass through), or undefined when it can. */
  static unreachable(dir: string, uid: number): string | undefined {
    for (let d = dirname(dir); ; d = dirname(d)) {
      const st = statSync(d)
      if (st.uid !== uid && (st.mode & 0o001) === 0)
        return `${d} is mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}`
      if (dirname(d) === d) return undefined
    }
  }

  /** Removes a pod's directory with all it holds, once the pod is gone. */
  remove(podUid: string): void {
    if (!/^[A-Za-z0-9-]+$/.test(podUid)) return
    rmSync(join(this.root, podUid), { recursive: true, force: true })
  }
}
