import type { KubeObject } from '../../apimachinery/types'

/** The name of the set's pod of `ordinal`: `<set>-<ordinal>`, as upstream's getPodName. */
export function podName(set: KubeObject, ordinal: number): string {
  return `${set.metadata.name}-${ordinal}`
}
