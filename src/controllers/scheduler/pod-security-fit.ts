import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import { goQuote } from '../../apimachinery/go-format'
import { RUNTIME_LABEL } from '../../agent-protocol/runtime-label'
import { levelVersionString, policyToEvaluate, type LevelVersion } from '../../apis/pod-security/levels'
import type { PodSecuritySettings } from '../../apis/pod-security/settings'
import type { Cache } from '../runtime/types'
import { namespaces } from '../resources'
import type { Rejection } from './rejection'

/** Why a process node is no place for a pod whose namespace enforces a Pod Security level. */
export const reasonPodSecurity = (enforced: LevelVersion): string =>
  `node(s) run containers as host processes, which can't meet the namespace's PodSecurity enforce level ${goQuote(levelVersionString(enforced))}`

/**
 * The Pod Security level the pod's namespace enforces, when it is stricter than privileged and
 * applies to the pod (the namespace and the pod's runtime class are not exempt). Exempt usernames
 * are not known here: the rule follows the namespace.
 */
export function enforcedLevel(pod: KubeObject, cache: Pick<Cache, 'get'>, settings: PodSecuritySettings | undefined): LevelVersion | undefined {
  if (!settings) return undefined
  const namespace = pod.metadata.namespace ?? ''
  if (settings.exemptions.namespaces.includes(namespace)) return undefined
  const runtimeClass = asRecord(pod.spec).runtimeClassName
  if (typeof runtimeClass === 'string' && settings.exemptions.runtimeClasses.includes(runtimeClass)) return undefined
  const labels = cache.get(namespaces, undefined, namespace)?.metadata.labels
  const { enforce } = policyToEvaluate(labels, settings.defaults).policy
  return enforce.level === 'privileged' ? undefined : enforce
}

/**
 * A `process` node runs every container as a process of the host, with the host's network, PID
 * namespace, filesystem and user: no Pod Security level but privileged describes what runs there,
 * so a pod whose namespace enforces baseline or restricted is kept off it.
 */
export function checkProcessNodeSecurity(node: KubeObject, enforced: LevelVersion | undefined): Rejection | undefined {
  if (!enforced || node.metadata.labels?.[RUNTIME_LABEL] !== 'process') return undefined
  return { reasons: [reasonPodSecurity(enforced)], resolvable: false }
}
