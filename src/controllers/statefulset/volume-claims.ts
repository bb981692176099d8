import type { KubeObject } from '../../apimachinery/types'
import { podName } from './pod-name'
import type { StatefulSet } from './types'
import type { Json } from '../../apimachinery/json-value'

/** getPersistentVolumeClaimName: `<claim>-<set>-<ordinal>`. */
export function claimName(set: KubeObject, claim: KubeObject, ordinal: number): string {
  return `${claim.metadata.name}-${podName(set, ordinal)}`
}

/**
 * getPersistentVolumeClaims: the claims one ordinal's pod needs, named per ordinal and labelled
 * with the set's selector labels. They are kept when the set scales down, as upstream's default
 * retention policy (Retain) keeps them.
 */
export function volumeClaimsFor(set: StatefulSet, ordinal: number): KubeObject[] {
  const selectorLabels = set.spec.selector?.matchLabels ?? {}
  return (set.spec.volumeClaimTemplates ?? []).map((t) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: claimName(set, t, ordinal),
      namespace: set.metadata.namespace,
      labels: { ...(t.metadata.labels ?? {}), ...selectorLabels },
    },
    spec: structuredClone(t.spec ?? {}),
  }))
}

/** updateStorage: each claim template mounted as a volume of its name, replacing a template volume of that name. */
export function podVolumesFor(
  set: StatefulSet,
  ordinal: number,
  templateVolumes: readonly Json[],
): Json[] {
  const claims = set.spec.volumeClaimTemplates ?? []
  const names = new Set(claims.map((c) => c.metadata.name))
  const claimVolumes = claims.map((c) => ({
    name: c.metadata.name,
    persistentVolumeClaim: { claimName: claimName(set, c, ordinal) },
  }))
  return [...claimVolumes, ...templateVolumes.filter((v) => !names.has(v.name as string))]
}
