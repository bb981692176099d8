/**
 * Pure: the agent's copy of its own Node, as kubelet's node lister keeps it from a watch of
 * `metadata.name=<node>`.
 */
import type { KubeObject } from '../apimachinery/types'
import { isNewer } from './pod-status-report'
import type { WatchEventType } from './pod-watch'

/** The node's own Node among the objects a list returned; undefined when it is not there. */
export function ownNode(items: readonly KubeObject[], name: string): KubeObject | undefined {
  return items.find((n) => n.metadata.name === name)
}

/**
 * The copy after a watch event or a write's answer: the deletion of the copy held (or of any, when
 * none is held) empties it; an older version of the same Node is ignored; another Node of the same
 * name (registered again) replaces it.
 */
export function nodeAfterEvent(
  cached: KubeObject | undefined,
  type: WatchEventType,
  node: KubeObject,
  name: string,
): KubeObject | undefined {
  if (node.metadata.name !== name) return cached
  const same = !!cached && cached.metadata.uid === node.metadata.uid
  if (type === 'DELETED') return !cached || same ? undefined : cached
  return !same || isNewer(node, cached) ? node : cached
}
