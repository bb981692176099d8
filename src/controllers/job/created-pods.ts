import type { KubeObject } from '../../apimachinery/types'
import { parseTime } from '../shared/time'

/** Pods younger than this when first seen are taken to be this controller's creates. */
const RECENT_MS = 60_000

/**
 * Pods are named by the store (generateName), so the SuccessfulCreate event naming a pod is
 * recorded once the pod shows up in the cache. The memory is per controller instance: after a
 * restart, only pods created in the last minute are announced again.
 */
export class CreatedPods {
  private readonly seen = new Map<string, Set<string>>()

  /** The owned pods not announced before, and remembers them. */
  announce(key: string, owned: readonly KubeObject[], now: number): KubeObject[] {
    const before = this.seen.get(key)
    const next = new Set<string>()
    const fresh: KubeObject[] = []
    for (const pod of owned) {
      const uid = pod.metadata.uid ?? ''
      next.add(uid)
      if (before?.has(uid)) continue
      const created = parseTime(pod.metadata.creationTimestamp)
      if (created !== undefined && now - created <= RECENT_MS) fresh.push(pod)
    }
    this.seen.set(key, next)
    return fresh
  }

  forget(key: string): void {
    this.seen.delete(key)
  }
}
