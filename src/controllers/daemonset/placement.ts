import type { KubeObject } from '../../apimachinery/types'
import { findUntoleratedTaint, nodeTaints } from '../node-lifecycle/taints'
import { checkNodeAffinity } from '../scheduler/filter'
import { withDaemonTolerations } from './tolerations'
import type { DaemonSet } from './types'
import { asRecord, type Json } from '../../apimachinery/json-value'

export interface Placement {
  /** a daemon pod should be created on the node */
  shouldRun: boolean
  /** a daemon pod already on the node may stay (it tolerates the node's NoExecute taints) */
  shouldContinueRunning: boolean
}

/**
 * NodeShouldRunDaemonPod: the template's nodeName (if any) names the node, its nodeSelector and
 * required node affinity match it, and with the daemon tolerations added its NoSchedule and
 * NoExecute taints are tolerated. A pod that only fails on NoSchedule taints may keep running.
 */
export function nodeShouldRunDaemonPod(node: KubeObject, ds: DaemonSet): Placement {
  const templateSpec = asRecord(ds.spec.template?.spec) as Json
  const nodeName = node.metadata.name ?? ''
  if (
    typeof templateSpec.nodeName === 'string' &&
    templateSpec.nodeName !== '' &&
    templateSpec.nodeName !== nodeName
  )
    return { shouldRun: false, shouldContinueRunning: false }
  const probe: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {},
    spec: { ...templateSpec, tolerations: withDaemonTolerations(templateSpec) },
  }
  if (checkNodeAffinity(probe, node)) return { shouldRun: false, shouldContinueRunning: false }
  const tolerations = (probe.spec as Json).tolerations as ReturnType<typeof withDaemonTolerations>
  const taints = nodeTaints(node)
  if (
    findUntoleratedTaint(
      taints,
      tolerations,
      (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute',
    )
  ) {
    return {
      shouldRun: false,
      shouldContinueRunning: !findUntoleratedTaint(
        taints,
        tolerations,
        (t) => t.effect === 'NoExecute',
      ),
    }
  }
  return { shouldRun: true, shouldContinueRunning: true }
}

/**
 * GetTargetNodeName: the node a daemon pod is for: where it is bound, or before that the node its
 * required affinity names through matchFields metadata.name.
 */
export function targetNodeName(pod: KubeObject): string | undefined {
  const spec = asRecord(pod.spec)
  if (typeof spec.nodeName === 'string' && spec.nodeName) return spec.nodeName
  const terms = asRecord(
    asRecord(asRecord(spec.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution,
  ).nodeSelectorTerms
  if (!Array.isArray(terms)) return undefined
  for (const term of terms) {
    for (const f of (asRecord(term).matchFields as Json[] | undefined) ?? []) {
      const values = f.values as unknown[] | undefined
      if (
        f.key === 'metadata.name' &&
        f.operator === 'In' &&
        Array.isArray(values) &&
        values.length === 1 &&
        typeof values[0] === 'string'
      )
        return values[0]
    }
  }
  return undefined
}
