/**
 * kube-scheduler's VolumeBinding plugin in minimal form. PreFilter: every claim of the pod exists
 * and is not being deleted, and an unbound one waits for its first consumer (an unbound claim of
 * an Immediate class is the PV controller's to bind first). Filter: a bound claim's volume must
 * be reachable from the node (its node affinity); an unbound one needs an available volume the
 * node reaches, or a class that can provision there. PreBind: the claims still unbound are marked
 * with the chosen node (`volume.kubernetes.io/selected-node`) and the pod is bound once they are.
 */
import type { KubeObject } from '../../apimachinery/types'
import { persistentVolumeClaims } from '../resources'
import type { Action, Cache } from '../runtime/types'
import {
  claimClass,
  findMatchingVolume,
  podClaimNames,
  volumeFitsNode,
} from '../persistentvolume/match'
import {
  LOCAL_PATH_PROVISIONER,
  LOCAL_PATH_ROOT_ANNOTATION,
  SELECTED_NODE_ANNOTATION,
} from '../../apis/storage/annotations'
import { persistentVolumes, storageClasses } from '../resources'
import type { Rejection } from './rejection'

export const REASON_VOLUME_AFFINITY = 'node(s) had volume node affinity conflict'
export const REASON_NO_VOLUME = "node(s) didn't find available persistent volumes to bind"
export const REASON_MISSING_VOLUME =
  'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)'

export interface VolumeBinding {
  /** why no node can take the pod (PreFilter), when that is so */
  unschedulable?: string
  /** the node filter for the pod's claims */
  filter(node: KubeObject): Rejection | undefined
  /** what to do once `node` is chosen: nothing (bind now), or the claims to mark first */
  preBind(node: string): { ready: boolean; actions: Action[] }
}

const rec = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
const unresolvable = (reason: string): Rejection => ({ reasons: [reason], resolvable: false })

export function volumeBinding(pod: KubeObject, cache: Cache): VolumeBinding {
  const namespace = pod.metadata.namespace ?? ''
  const bound: (KubeObject | undefined)[] = []
  const delayed: KubeObject[] = []
  for (const name of podClaimNames(pod)) {
    const pvc = cache.get(persistentVolumeClaims, namespace, name)
    if (!pvc) return refuse(`persistentvolumeclaim "${name}" not found`)
    if (pvc.metadata.deletionTimestamp)
      return refuse(`persistentvolumeclaim "${name}" is being deleted`)
    const volumeName = rec(pvc.spec).volumeName
    if (typeof volumeName === 'string' && volumeName) {
      bound.push(cache.get(persistentVolumes, undefined, volumeName))
      continue
    }
    const cls = cache.get(storageClasses, undefined, claimClass(pvc))
    if (cls?.volumeBindingMode !== 'WaitForFirstConsumer')
      return refuse('pod has unbound immediate PersistentVolumeClaims')
    delayed.push(pvc)
  }
  const volumes = delayed.length ? cache.list(persistentVolumes) : []
  return {
    filter(node) {
      for (const pv of bound) {
        if (!pv) return unresolvable(REASON_MISSING_VOLUME)
        if (!volumeFitsNode(pv, node)) return unresolvable(REASON_VOLUME_AFFINITY)
      }
      for (const pvc of delayed) {
        const selected = pvc.metadata.annotations?.[SELECTED_NODE_ANNOTATION]
        // Provisioning for another node is under way: the pod follows its volume.
        if (selected && selected !== node.metadata.name) return unresolvable(REASON_NO_VOLUME)
        if (findMatchingVolume(pvc, volumes, node)) continue
        const cls = cache.get(storageClasses, undefined, claimClass(pvc))
        if (
          cls?.provisioner === LOCAL_PATH_PROVISIONER &&
          !node.metadata.annotations?.[LOCAL_PATH_ROOT_ANNOTATION]
        )
          return unresolvable(REASON_NO_VOLUME)
        if (cls?.provisioner === 'kubernetes.io/no-provisioner')
          return unresolvable(REASON_NO_VOLUME)
      }
      return undefined
    },
    preBind(node) {
      const actions: Action[] = delayed
        .filter((pvc) => pvc.metadata.annotations?.[SELECTED_NODE_ANNOTATION] !== node)
        .map((pvc) => ({
          type: 'patch',
          resource: persistentVolumeClaims,
          namespace,
          name: pvc.metadata.name ?? '',
          patch: { metadata: { annotations: { [SELECTED_NODE_ANNOTATION]: node } } },
        }))
      return { ready: delayed.length === 0, actions }
    },
  }
}

function refuse(reason: string): VolumeBinding {
  return {
    unschedulable: reason,
    filter: () => undefined,
    preBind: () => ({ ready: false, actions: [] }),
  }
}

/** The FitError message of a PreFilter rejection: no node was looked at. */
export function preFilterMessage(reason: string, nodeCount: number): string {
  return `0/${nodeCount} nodes are available: ${reason}. preemption: 0/${nodeCount} nodes are available: ${nodeCount} Preemption is not helpful for scheduling.`
}
