import type { KubeObject } from '../../apimachinery/types'

/**
 * truncateHistory / cleanupHistory: the revisions to delete so that at most `limit` revisions no
 * pod, nor the current or update revision, still uses remain, oldest first. `sorted` is in
 * revision order; `isLive` says whether a revision is still in use.
 */
export function revisionsToTruncate(
  sorted: readonly KubeObject[],
  isLive: (r: KubeObject) => boolean,
  limit: number,
): KubeObject[] {
  const history = sorted.filter((r) => !isLive(r))
  return history.length <= limit ? [] : history.slice(0, history.length - Math.max(0, limit))
}
