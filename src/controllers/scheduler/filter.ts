import {
  newRequirement,
  requirementMatches,
  type LabelRequirement,
  type SelectorOperator,
} from '../../apimachinery/labels'
import type { KubeObject } from '../../apimachinery/types'
import {
  TAINT_NOT_READY,
  TAINT_UNREACHABLE,
  TAINT_UNSCHEDULABLE,
  findUntoleratedTaint,
  nodeTaints,
  podTolerations,
  tolerationsTolerateTaint,
  type Toleration,
} from '../node-lifecycle/taints'
import { podSpec } from './pods'
import { checkNodeRuntime } from './runtime-fit'
import { checkProcessNodeSecurity } from './pod-security-fit'
import type { LevelVersion } from '../../apis/pod-security/levels'
import type { Rejection } from './rejection'
import type { ResourceList } from './requests'
import { asRecord, type Json } from '../../apimachinery/json-value'

/*
 * The scheduler's filters, each a pure check of one pod against one node. Each returns undefined
 * when the node passes, or the reasons it does not (a Rejection, rejection.ts).
 */

const asArray = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : [])

export const REASON_NOT_READY = 'node(s) were not ready'
export const REASON_UNSCHEDULABLE = 'node(s) were unschedulable'
export const REASON_AFFINITY = "node(s) didn't match Pod's node affinity/selector"
export const REASON_TOO_MANY_PODS = 'Too many pods'

const unresolvable = (reason: string): Rejection => ({ reasons: [reason], resolvable: false })

function readyStatus(node: KubeObject): string | undefined {
  const conditions = asArray(asRecord(node.status).conditions)
  const ready = conditions.find((c) => c.type === 'Ready')
  return typeof ready?.status === 'string' ? ready.status : undefined
}

/**
 * Ready=True. A pod that tolerates the NoSchedule taint the node lifecycle controller puts on such a
 * node (not-ready for False, unreachable for Unknown) may still go there, as DaemonSet pods must for
 * nodes that only become Ready once those pods run.
 */
export function checkNodeReady(pod: KubeObject, node: KubeObject): Rejection | undefined {
  const status = readyStatus(node)
  if (status === 'True') return undefined
  const key = status === 'False' ? TAINT_NOT_READY : TAINT_UNREACHABLE
  if (tolerationsTolerateTaint(podTolerations(pod), { key, effect: 'NoSchedule' })) return undefined
  return unresolvable(REASON_NOT_READY)
}

/** spec.unschedulable (cordoned), unless the pod tolerates node.kubernetes.io/unschedulable:NoSchedule. */
export function checkNodeUnschedulable(pod: KubeObject, node: KubeObject): Rejection | undefined {
  if (asRecord(node.spec).unschedulable !== true) return undefined
  if (
    tolerationsTolerateTaint(podTolerations(pod), {
      key: TAINT_UNSCHEDULABLE,
      effect: 'NoSchedule',
    })
  )
    return undefined
  return unresolvable(REASON_UNSCHEDULABLE)
}

/** NoSchedule and NoExecute taints must be tolerated; the first one that is not is named. */
export function checkTaints(pod: KubeObject, node: KubeObject): Rejection | undefined {
  const tolerations: Toleration[] = podTolerations(pod)
  const taint = findUntoleratedTaint(
    nodeTaints(node),
    tolerations,
    (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute',
  )
  if (!taint) return undefined
  return unresolvable(`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`)
}

const operators: Record<string, SelectorOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
  Gt: 'gt',
  Lt: 'lt',
}

/** A NodeSelectorRequirement as a label requirement; undefined when it is invalid (it then matches nothing). */
function toRequirement(expr: Json): LabelRequirement | undefined {
  const op = operators[String(expr.operator)]
  if (!op || typeof expr.key !== 'string') return undefined
  const values = Array.isArray(expr.values)
    ? expr.values.filter((v): v is string => typeof v === 'string')
    : []
  try {
    return newRequirement(expr.key, op, values)
  } catch {
    return undefined
  }
}

/** matchFields supports only metadata.name with In (one value) and NotIn. */
function fieldMatches(expr: Json, node: KubeObject): boolean {
  if (expr.key !== 'metadata.name') return false
  const values = Array.isArray(expr.values) ? expr.values : []
  const name = node.metadata.name ?? ''
  if (expr.operator === 'In') return values.length === 1 && values[0] === name
  if (expr.operator === 'NotIn') return !values.includes(name)
  return false
}

/** One NodeSelectorTerm: its expressions and fields are ANDed; an empty term matches nothing. */
export function termMatches(term: Json, node: KubeObject): boolean {
  const exprs = asArray(term.matchExpressions)
  const fields = asArray(term.matchFields)
  if (exprs.length === 0 && fields.length === 0) return false
  const labels = node.metadata.labels ?? {}
  for (const e of exprs) {
    const r = toRequirement(e)
    if (!r || !requirementMatches(r, labels)) return false
  }
  return fields.every((f) => fieldMatches(f, node))
}

/** spec.nodeSelector (every label equal) and requiredDuringScheduling node affinity (terms ORed). */
export function checkNodeAffinity(pod: KubeObject, node: KubeObject): Rejection | undefined {
  const spec = podSpec(pod)
  const labels = node.metadata.labels ?? {}
  for (const [k, v] of Object.entries(asRecord(spec.nodeSelector))) {
    if (!Object.prototype.hasOwnProperty.call(labels, k) || labels[k] !== v)
      return unresolvable(REASON_AFFINITY)
  }
  const required = asRecord(
    asRecord(asRecord(spec.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution,
  )
  if (required.nodeSelectorTerms === undefined) return undefined
  const terms = asArray(required.nodeSelectorTerms)
  return terms.some((t) => termMatches(t, node)) ? undefined : unresolvable(REASON_AFFINITY)
}

/** What a node already carries: the summed requests and the number of pods bound to it. */
export interface NodeLoad {
  requested: ResourceList
  podCount: number
}

const scalarResource = (name: string) =>
  name.includes('/') || name.startsWith('hugepages-') || name.startsWith('attachable-volumes-')

/**
 * NodeResourcesFit: one more pod within allocatable `pods`, and every requested amount within
 * allocatable minus what bound pods already request. All shortfalls are reported, not just the first.
 */
export function checkResources(
  request: ResourceList,
  allocatable: ResourceList,
  load: NodeLoad,
): Rejection | undefined {
  const reasons: string[] = []
  if (load.podCount + 1 > (allocatable.pods ?? 0)) reasons.push(REASON_TOO_MANY_PODS)
  const free = (name: string) => (allocatable[name] ?? 0) - (load.requested[name] ?? 0)
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const want = request[name] ?? 0
    if (want > 0 && want > free(name)) reasons.push(`Insufficient ${name}`)
  }
  for (const [name, want] of Object.entries(request)) {
    if (!scalarResource(name) || want <= 0) continue
    if (want > free(name)) reasons.push(`Insufficient ${name}`)
  }
  return reasons.length ? { reasons, resolvable: true } : undefined
}

/**
 * Every filter in kube-scheduler's order; a node is reported with the first filter it fails, as the
 * framework stops at the first failing plugin. `podSecurity`: the Pod Security level the pod's
 * namespace enforces, when stricter than privileged (see pod-security-fit.ts).
 */
export function filterNode(
  pod: KubeObject,
  node: KubeObject,
  request: ResourceList,
  allocatable: ResourceList,
  load: NodeLoad,
  podSecurity?: LevelVersion,
): Rejection | undefined {
  return (
    checkNodeReady(pod, node) ??
    checkNodeUnschedulable(pod, node) ??
    checkTaints(pod, node) ??
    checkNodeAffinity(pod, node) ??
    checkNodeRuntime(pod, node) ??
    checkProcessNodeSecurity(node, podSecurity) ??
    checkResources(request, allocatable, load)
  )
}
