import type { KubeObject } from '../../apimachinery/types'
import { newControllerRef } from '../../apimachinery/owner-refs'
import { podFromTemplate } from '../shared/pod-template'
import type { PodTemplate } from '../shared/workloads'
import type { StatefulSet } from './types'
import { podVolumesFor } from './volume-claims'
import { podName } from './pod-name'
import { asRecord, type Json } from '../../apimachinery/json-value'

export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name'
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index'
/** StatefulSetRevisionLabel: the name of the revision a pod was made from. */
export const REVISION_LABEL = 'controller-revision-hash'

const ordinalName = /^(.*)-([0-9]+)$/

/** getParentNameAndOrdinal: `web-3` → web and 3; a name without a numeric suffix has none. */
export function parentAndOrdinal(pod: KubeObject): { parent: string; ordinal: number } | undefined {
  const m = ordinalName.exec(pod.metadata.name ?? '')
  if (!m) return undefined
  const ordinal = Number(m[2])
  return Number.isSafeInteger(ordinal) ? { parent: m[1]!, ordinal } : undefined
}

/** isMemberOf: the pod's name is the set's name and an ordinal. */
export function isMemberOf(set: KubeObject, pod: KubeObject): boolean {
  return parentAndOrdinal(pod)?.parent === set.metadata.name
}

export function ordinalOf(pod: KubeObject): number {
  return parentAndOrdinal(pod)?.ordinal ?? -1
}

export function podRevision(pod: KubeObject): string {
  return pod.metadata.labels?.[REVISION_LABEL] ?? ''
}

/** identityMatches: the name, namespace and identity labels a pod of this ordinal must carry. */
export function identityMatches(set: StatefulSet, pod: KubeObject): boolean {
  const p = parentAndOrdinal(pod)
  const labels = pod.metadata.labels ?? {}
  return (
    !!p &&
    p.parent === set.metadata.name &&
    pod.metadata.namespace === set.metadata.namespace &&
    labels[POD_NAME_LABEL] === pod.metadata.name &&
    labels[POD_INDEX_LABEL] === String(p.ordinal)
  )
}

/** The merge patch that restores a pod's identity labels (updateIdentity's part that may change on a live pod). */
export function identityPatch(pod: KubeObject): unknown {
  return {
    metadata: {
      labels: { [POD_NAME_LABEL]: pod.metadata.name, [POD_INDEX_LABEL]: String(ordinalOf(pod)) },
      resourceVersion: pod.metadata.resourceVersion,
    },
  }
}

/**
 * newVersionedStatefulSetPod: the pod for an ordinal from a given template (the current or the
 * update revision's), named `<set>-<ordinal>`, with its identity labels, hostname and subdomain,
 * its claims mounted, and labelled with the revision it was made from.
 */
export function newStatefulSetPod(
  set: StatefulSet,
  template: PodTemplate,
  revisionName: string,
  ordinal: number,
): KubeObject {
  const pod = podFromTemplate(template, set, newControllerRef(set, 'apps/v1', 'StatefulSet'))
  const name = podName(set, ordinal)
  delete pod.metadata.generateName
  pod.metadata.name = name
  pod.metadata.labels = {
    ...(pod.metadata.labels ?? {}),
    [POD_NAME_LABEL]: name,
    [POD_INDEX_LABEL]: String(ordinal),
    [REVISION_LABEL]: revisionName,
  }
  const spec = asRecord(pod.spec) as Json
  spec.hostname = name
  if (set.spec.serviceName) spec.subdomain = set.spec.serviceName
  const volumes = podVolumesFor(
    set,
    ordinal,
    Array.isArray(spec.volumes) ? (spec.volumes as Json[]) : [],
  )
  if (volumes.length) spec.volumes = volumes
  pod.spec = spec
  return pod
}
