/**
 * Pure matching of claims to volumes, as the PV controller's findMatchingVolume and the
 * scheduler's volume binding read it: class, access modes, capacity, selector, volume mode,
 * pre-binding (`claimRef` / `volumeName`) and node affinity.
 */
import { matchesLabels, selectorFromLabelSelector, SelectorError } from '../../apimachinery/labels'
import type { KubeObject } from '../../apimachinery/types'
import { parseBytes } from '../../apimachinery/quantity'
import { termMatches } from '../scheduler/filter'
import { asRecord as rec, type Json } from '../../apimachinery/json-value'

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

const bytes = (q: unknown): number => {
  try {
    return parseBytes(q as string)
  } catch {
    return 0
  }
}

/** The class a claim asks for ('' is "no class"); the beta annotation still counts, as upstream. */
export function claimClass(pvc: KubeObject): string {
  const spec = rec(pvc.spec)
  return String(
    spec.storageClassName ??
      pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ??
      '',
  )
}

export function volumeClass(pv: KubeObject): string {
  const spec = rec(pv.spec)
  return String(
    spec.storageClassName ??
      pv.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ??
      '',
  )
}

export const claimRequest = (pvc: KubeObject): number =>
  bytes(rec(rec(rec(pvc.spec).resources).requests).storage)
export const volumeCapacity = (pv: KubeObject): number => bytes(rec(rec(pv.spec).capacity).storage)

/** Whether the volume's claimRef names this claim (by uid once it has one). */
export function claimRefMatches(pv: KubeObject, pvc: KubeObject): boolean {
  const ref = rec(rec(pv.spec).claimRef)
  if (ref.name !== pvc.metadata.name || (ref.namespace ?? '') !== (pvc.metadata.namespace ?? ''))
    return false
  return !ref.uid || ref.uid === pvc.metadata.uid
}

/** Whether a node may reach the volume: its required node affinity matches (no affinity: any node). */
export function volumeFitsNode(pv: KubeObject, node: KubeObject): boolean {
  const required = rec(rec(rec(pv.spec).nodeAffinity).required)
  if (required.nodeSelectorTerms === undefined) return true
  return arr(required.nodeSelectorTerms).some((t) => termMatches(rec(t), node))
}

/** Why the volume cannot serve the claim, or undefined when it can (class, modes, size, selector, mode). */
export function mismatch(pv: KubeObject, pvc: KubeObject): string | undefined {
  const pvSpec = rec(pv.spec)
  const claimSpec = rec(pvc.spec)
  if (volumeClass(pv) !== claimClass(pvc)) return 'storageClassName does not match'
  const modes = new Set(arr(pvSpec.accessModes))
  if (!arr(claimSpec.accessModes).every((m) => modes.has(m))) return 'incompatible accessMode'
  if (volumeCapacity(pv) < claimRequest(pvc)) return 'requested PV is too small'
  if ((pvSpec.volumeMode ?? 'Filesystem') !== (claimSpec.volumeMode ?? 'Filesystem'))
    return 'incompatible volumeMode'
  if (claimSpec.selector !== undefined) {
    try {
      if (
        !matchesLabels(
          selectorFromLabelSelector(claimSpec.selector as never),
          pv.metadata.labels ?? {},
        )
      )
        return 'label selector does not match'
    } catch (e) {
      if (e instanceof SelectorError) return 'invalid label selector'
      throw e
    }
  }
  return undefined
}

/**
 * findMatchingVolume: a volume pre-bound to the claim wins; otherwise the smallest available one
 * that fits (and, when a node is given, that the node can reach). Volumes being deleted or
 * bound to another claim never match.
 */
export function findMatchingVolume(
  pvc: KubeObject,
  volumes: readonly KubeObject[],
  node?: KubeObject,
): KubeObject | undefined {
  let best: KubeObject | undefined
  for (const pv of volumes) {
    if (pv.metadata.deletionTimestamp) continue
    if (node && !volumeFitsNode(pv, node)) continue
    const ref = rec(rec(pv.spec).claimRef)
    if (ref.name !== undefined) {
      if (claimRefMatches(pv, pvc) && !mismatch(pv, pvc)) return pv
      continue
    }
    const phase = rec(pv.status).phase
    if (phase !== undefined && phase !== 'Available' && phase !== 'Pending') continue
    if (mismatch(pv, pvc)) continue
    if (!best || volumeCapacity(pv) < volumeCapacity(best)) best = pv
  }
  return best
}

/** The claims a pod's volumes name: persistentVolumeClaim sources and generic ephemeral volumes. */
export function podClaimNames(pod: KubeObject): string[] {
  const out: string[] = []
  for (const v of arr(rec(pod.spec).volumes)) {
    const vol = rec(v)
    const claim = rec(vol.persistentVolumeClaim).claimName
    if (typeof claim === 'string' && claim) out.push(claim)
    else if (vol.ephemeral !== undefined) out.push(`${pod.metadata.name}-${String(vol.name)}`)
  }
  return out
}
