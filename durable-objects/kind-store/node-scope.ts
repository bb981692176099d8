import type { KubeObject } from '../../src/apimachinery/types'
import type { FilterSpec } from '../../src/apimachinery/object-filter'
import {
  parseFieldSelector,
  requiresExactMatch,
  supportedFieldLabels,
  validateFieldSelector,
} from '../../src/apimachinery/fields'

/** The node a pod is bound to, as kept in the store's `node_name` column ('' while unbound). */
export function nodeNameOf(obj: KubeObject | undefined): string {
  const node = (obj?.spec as { nodeName?: unknown } | undefined)?.nodeName
  return typeof node === 'string' ? node : ''
}

/** A list or watch narrowed to the pods of one node by `spec.nodeName=<node>` (or `spec.host`). */
export interface NodeScope {
  node: string
  /** the selectors ask nothing else, so a row of that node matches without being parsed */
  only: boolean
}

/** The node a pods list or watch is pinned to, if its field selector pins one; the selectors must already compile. */
export function nodeScope(resource: string, spec: FilterSpec): NodeScope | undefined {
  if (!spec.fieldSelector || !supportedFieldLabels(resource).includes('spec.nodeName'))
    return undefined
  const fields = validateFieldSelector(resource, parseFieldSelector(spec.fieldSelector))
  const node = requiresExactMatch(fields, 'spec.nodeName')
  if (node === undefined) return undefined
  return { node, only: !spec.labelSelector && fields.requirements.length === 1 }
}
