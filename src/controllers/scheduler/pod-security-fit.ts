import type { KubeObject } from '../../apimachinery/types'
import { asRecord } from '../../apimachinery/json-value'
import type { LevelVersion } from '../../apis/pod-security/levels'
import {
  hostProcessesReason,
  isProcessNode,
  levelKeptOffProcessNodes,
} from '../../apis/pod-security/process-node'
import type { PodSecuritySettings } from '../../apis/pod-security/settings'
import type { Cache } from '../runtime/types'
import { namespaces } from '../resources'
import type { Rejection } from './rejection'

/** Why a process node is no place for a pod whose namespace enforces a Pod Security level. */
export const reasonPodSecurity = (enforced: LevelVersion): string =>
  `node(s) run ${hostProcessesReason(enforced)}`

/**
 * The Pod Security level the pod's namespace enforces, when it is stricter than privileged and
 * applies to the pod (the namespace and the pod's runtime class are not exempt): the rule of
 * src/apis/pod-security/process-node.ts, on the namespace's labels as cached.
 */
export function enforcedLevel(
  pod: KubeObject,
  cache: Pick<Cache, 'get'>,
  settings: PodSecuritySettings | undefined,
): LevelVersion | undefined {
  if (!settings) return undefined
  const namespace = pod.metadata.namespace ?? ''
  const labels = cache.get(namespaces, undefined, namespace)?.metadata.labels
  return levelKeptOffProcessNodes(
    { namespace, runtimeClassName: asRecord(pod.spec).runtimeClassName },
    labels,
    settings,
  )
}

/**
 * A `process` node runs every container as a process of the host, with the host's network, PID
 * namespace, filesystem and user: no Pod Security level but privileged describes what runs there,
 * so a pod whose namespace enforces baseline or restricted is kept off it.
 */
export function checkProcessNodeSecurity(
  node: KubeObject,
  enforced: LevelVersion | undefined,
): Rejection | undefined {
  if (!enforced || !isProcessNode(node)) return undefined
  return { reasons: [reasonPodSecurity(enforced)], resolvable: false }
}
