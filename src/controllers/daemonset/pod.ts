import type { KubeObject } from '../../apimachinery/types'
import { newControllerRef } from '../../apimachinery/owner-refs'
import { podFromTemplate } from '../shared/pod-template'
import { withDaemonTolerations } from './tolerations'
import type { DaemonSet } from './types'
import { asRecord, type Json } from '../../apimachinery/json-value'

/** DefaultDaemonSetUniqueLabelKey: the hash of the revision a daemon pod was made from. */
export const DAEMON_REVISION_LABEL = 'controller-revision-hash'

/**
 * ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes a single term
 * selecting the node by name (matchFields metadata.name), so the scheduler binds the pod there and
 * nowhere else; preferred terms and other affinities are kept.
 */
export function pinnedAffinity(affinity: unknown, nodeName: string): Json {
  const out = structuredClone(asRecord(affinity))
  const nodeAffinity = asRecord(out.nodeAffinity)
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
    nodeSelectorTerms: [
      { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] },
    ],
  }
  out.nodeAffinity = nodeAffinity
  return out
}

/** CreatePodTemplate plus the node pinning of syncNodes: a daemon pod for one node at one revision. */
export function newDaemonPod(ds: DaemonSet, nodeName: string, hash: string): KubeObject {
  const pod = podFromTemplate(ds.spec.template, ds, newControllerRef(ds, 'apps/v1', 'DaemonSet'))
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [DAEMON_REVISION_LABEL]: hash }
  const spec = asRecord(pod.spec) as Json
  spec.tolerations = withDaemonTolerations(spec)
  spec.affinity = pinnedAffinity(spec.affinity, nodeName)
  pod.spec = spec
  return pod
}

/** IsPodUpdated: the pod carries the current revision's hash. */
export function isPodUpdated(pod: KubeObject, hash: string): boolean {
  return hash !== '' && pod.metadata.labels?.[DAEMON_REVISION_LABEL] === hash
}
