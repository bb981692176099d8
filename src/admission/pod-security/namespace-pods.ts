/**
 * A namespace's existing pods checked against the enforce level a label change would give it
 * (upstream's EvaluatePodsInNamespace): one pod of each controller first, at most
 * `podSecurityNamespaceMaxPodsToCheck` of them, within `podSecurityNamespacePodCheckTimeoutMs`;
 * pods with the same violations are reported once, under the first name in lexical order.
 */
import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import { goQuote } from '../../apimachinery/go-format'
import { controllerRefOf } from '../../apimachinery/owner-refs'
import { levelVersionString, type LevelVersion } from '../../apis/pod-security/levels'
import type { PodSecuritySettings } from '../../apis/pod-security/settings'
import { podSecurityNamespaceMaxPodsToCheck } from '../../config'
import { exemptRuntimeClass } from './decide'
import { checkPod, forbiddenReason } from './evaluate'

export interface PodCheckLimits {
  maxPods: number
  /** when checking stops, on the clock `now` reads */
  deadline: number
  now: () => number
}

/** Pods of an exempt runtime class left out; of each controller's pods the first, then the rest. */
function prioritized(s: PodSecuritySettings, pods: readonly KubeObject[]): KubeObject[] {
  const first: KubeObject[] = []
  const repeats: KubeObject[] = []
  const seen = new Set<string>()
  for (const pod of pods) {
    if (exemptRuntimeClass(s, asRecord(pod.spec))) continue
    const owner = controllerRefOf(pod)?.uid
    if (owner === undefined) first.push(pod)
    else if (seen.has(owner)) repeats.push(pod)
    else {
      seen.add(owner)
      first.push(pod)
    }
  }
  return [...first, ...repeats]
}

/** The warnings a tightened enforce level answers with: the summary lines, then one per violation. */
export function existingPodWarnings(
  s: PodSecuritySettings,
  namespace: string,
  enforce: LevelVersion,
  pods: readonly KubeObject[],
  limits: PodCheckLimits = {
    maxPods: podSecurityNamespaceMaxPodsToCheck,
    deadline: Infinity,
    now: Date.now,
  },
): string[] {
  const all = prioritized(s, pods)
  const toCheck = all.slice(0, limits.maxPods)
  const byReason = new Map<string, { name: string; count: number }>()
  let checked = toCheck.length
  for (const [i, pod] of toCheck.entries()) {
    const result = checkPod(enforce, asRecord(pod.metadata), asRecord(pod.spec))
    if (!result.allowed) {
      const reason = forbiddenReason(result)
      const name = pod.metadata.name ?? ''
      const seen = byReason.get(reason)
      if (!seen) byReason.set(reason, { name, count: 1 })
      else {
        seen.count++
        if (name < seen.name) seen.name = name
      }
    }
    if (limits.now() > limits.deadline) {
      checked = i + 1
      break
    }
  }
  const warnings: string[] = []
  if (checked < all.length)
    warnings.push(
      `new PodSecurity enforce level only checked against the first ${checked} of ${all.length} existing pods`,
    )
  if (byReason.size)
    warnings.push(
      `existing pods in namespace ${goQuote(namespace)} violate the new PodSecurity enforce level ${goQuote(levelVersionString(enforce))}`,
    )
  const lines = [...byReason].map(([reason, { name, count }]) => {
    if (count === 1) return `${name}: ${reason}`
    return `${name} (and ${count - 1} other ${count === 2 ? 'pod' : 'pods'}): ${reason}`
  })
  return [...warnings, ...lines.sort()]
}
