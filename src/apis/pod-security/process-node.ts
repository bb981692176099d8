/**
 * The process-node rule: a `process` node runs every container as a process of the host, with the
 * host's network, PID namespace, filesystem and user, so no Pod Security level but privileged
 * describes what runs there. A pod whose namespace enforces baseline or restricted never runs on
 * one: the scheduler keeps it off, and admission refuses it when it names the node itself
 * (`spec.nodeName` on create, or pods/binding). Both ask the same question, here.
 */
import type { KubeObject } from '../../apimachinery/types'
import { RUNTIME_LABEL } from '../../agent-protocol/runtime-label'
import { goQuote } from '../../apimachinery/go-format'
import { levelVersionString, policyToEvaluate, type LevelVersion } from './levels'
import type { PodSecuritySettings } from './settings'

/** What the rule needs to know of a pod. */
export interface ProcessNodeSubject {
  namespace: string
  /** spec.runtimeClassName, as it is (an exempt runtime class escapes the rule) */
  runtimeClassName: unknown
}

/**
 * The Pod Security level the pod's namespace enforces, by its labels (undefined: none, or unknown)
 * or the cluster default, when it is stricter than privileged and applies to the pod (neither the
 * namespace nor the pod's runtime class is exempt). Exempt usernames do not count: who made the pod
 * is not known where it is placed, so the rule follows the namespace.
 */
export function levelKeptOffProcessNodes(
  pod: ProcessNodeSubject,
  namespaceLabels: Record<string, string> | undefined,
  settings: PodSecuritySettings,
): LevelVersion | undefined {
  if (settings.exemptions.namespaces.includes(pod.namespace)) return undefined
  const runtimeClass = pod.runtimeClassName
  if (typeof runtimeClass === 'string' && settings.exemptions.runtimeClasses.includes(runtimeClass))
    return undefined
  const { enforce } = policyToEvaluate(namespaceLabels, settings.defaults).policy
  return enforce.level === 'privileged' ? undefined : enforce
}

/** Whether the node runs its pods as host processes (the label its agent puts on it). */
export const isProcessNode = (node: KubeObject): boolean =>
  node.metadata.labels?.[RUNTIME_LABEL] === 'process'

/** Why a process node can't take the pod, after what names the node(s). */
export const hostProcessesReason = (enforced: LevelVersion): string =>
  `containers as host processes, which can't meet the namespace's PodSecurity enforce level ${goQuote(levelVersionString(enforced))}`
