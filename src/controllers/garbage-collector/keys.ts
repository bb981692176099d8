import type { KubeObject } from '../../apimachinery/types'
import type { ResourceRef } from '../runtime/types'

/**
 * Work-queue keys name one object of any watched kind: `group/plural/namespace/name`, with `core`
 * for the core group and an empty namespace for cluster-scoped objects, e.g.
 * `apps/replicasets/default/web-5d8f` or `core/nodes//n1`. No segment can contain a slash (group
 * names are DNS subdomains, the others DNS labels or path segments), so the split is unambiguous.
 */
export function objectKey(
  ref: Pick<ResourceRef, 'group' | 'plural'>,
  namespace: string | undefined,
  name: string,
): string {
  return `${ref.group || 'core'}/${ref.plural}/${namespace ?? ''}/${name}`
}

export function keyOf(ref: Pick<ResourceRef, 'group' | 'plural'>, object: KubeObject): string {
  return objectKey(ref, object.metadata.namespace, object.metadata.name ?? '')
}

export interface ParsedKey {
  group: string
  plural: string
  namespace: string | undefined
  name: string
}

export function parseKey(key: string): ParsedKey | undefined {
  const parts = key.split('/')
  if (parts.length !== 4) return undefined
  const [group, plural, namespace, name] = parts as [string, string, string, string]
  if (!group || !plural || !name) return undefined
  return { group: group === 'core' ? '' : group, plural, namespace: namespace || undefined, name }
}
