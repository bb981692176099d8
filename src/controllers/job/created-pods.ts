import type { KubeObject } from '../../apimachinery/types'
import { ControllerMemory } from '../runtime/memory'
import { parseTime } from '../../apimachinery/meta-time'

/** Pods younger than this when first seen are taken to be this controller's creates. */
const RECENT_MS = 60_000

/**
 * Pods are named by the store (generateName), so the SuccessfulCreate event naming a pod is
 * recorded once the pod shows up in the cache. The uids already announced, per Job, live in the
 * controller's memory, which its host persists: a restarted controller announces no pod twice.
 */
export class CreatedPods {
  constructor(readonly memory: ControllerMemory = new ControllerMemory()) {}

  /** The owned pods not announced before, and remembers them. */
  announce(key: string, owned: readonly KubeObject[], now: number): KubeObject[] {
    const saved = this.memory.get(key)
    const before = new Set(Array.isArray(saved) ? (saved as string[]) : [])
    const next: string[] = []
    const fresh: KubeObject[] = []
    for (const pod of owned) {
      const uid = pod.metadata.uid ?? ''
      next.push(uid)
      if (before.has(uid)) continue
      const created = parseTime(pod.metadata.creationTimestamp)
      if (created !== undefined && now - created <= RECENT_MS) fresh.push(pod)
    }
    const same = next.length === before.size && next.every((uid) => before.has(uid))
    if (!same || saved === undefined) this.memory.set(key, next)
    return fresh
  }

  forget(key: string): void {
    this.memory.delete(key)
  }
}
