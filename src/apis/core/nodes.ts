/** core/v1 Node: its strategy, and NodeRestriction's checks of a node's writes to its own Node. */
import type { KubeObject } from '../../apimachinery/types'
import { jsonEqual } from '../../apimachinery/json-value'
import type { KindStrategy } from '../kind-strategy'
import { forbiddenNodeLabels, type NodeWriter } from '../node-restriction'

function taints(node: KubeObject): unknown {
  return (node.spec as { taints?: unknown } | undefined)?.taints
}

/** A node registers itself with the labels a kubelet may set, and changes neither its taints nor other labels. */
function nodeWriteRefusal(
  { node }: NodeWriter,
  old: KubeObject | undefined,
  obj: KubeObject,
): string | undefined {
  if (!old) {
    const labels = forbiddenNodeLabels(obj.metadata.labels, undefined)
    return labels.length
      ? `node "${node}" is not allowed to set the following labels: ${labels.join(', ')}`
      : undefined
  }
  if (!jsonEqual(taints(obj) ?? [], taints(old) ?? []))
    return `node "${node}" is not allowed to modify taints`
  const labels = forbiddenNodeLabels(obj.metadata.labels, old.metadata.labels)
  return labels.length ? `is not allowed to modify labels: ${labels.join(', ')}` : undefined
}

export const nodeStrategy: KindStrategy = {
  // A node reports its status as it registers.
  initialStatus: (obj) => obj.status,
  nodeWriteRefusal,
}
