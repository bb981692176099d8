import type { MetaLabelSelector } from '../../apimachinery/labels'
import { scaledValue } from '../shared/int-or-percent'
import { equalIgnoreHash } from '../shared/pod-template'
import { rsStatus, specReplicas, type Deployment, type ReplicaSet } from '../shared/workloads'
import { isRollingUpdate, maxSurge, RECREATE, strategyType } from './fenceposts'
import { intOr } from '../../apimachinery/json-value'

/** The annotations deploymentutil reads and writes, by their upstream names. */
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision'
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history'
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas'
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas'

/** Deployment annotations never copied onto its ReplicaSets (annotationsToSkip). */
const annotationsToSkip = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  'deprecated.deployment.rollback.to',
])

/** How long revision-history may grow before the oldest entries are dropped (maxRevHistoryLengthInChars). */
const MAX_REVISION_HISTORY_CHARS = 2000

const parseInt64 = (v: string | undefined): number | undefined =>
  v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : undefined

/** deploymentutil.Revision: a missing annotation is revision 0, an unreadable one undefined. */
export function revisionOf(rs: ReplicaSet): number | undefined {
  const v = rs.metadata.annotations?.[REVISION_ANNOTATION]
  return v === undefined ? 0 : parseInt64(v)
}

export function maxRevision(list: readonly ReplicaSet[]): number {
  return list.reduce((max, rs) => Math.max(max, revisionOf(rs) ?? 0), 0)
}

const creationOf = (rs: ReplicaSet) => rs.metadata.creationTimestamp ?? ''

/** ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const [ta, tb] = [creationOf(a), creationOf(b)]
  if (ta !== tb) return ta < tb ? -1 : 1
  const [na, nb] = [a.metadata.name ?? '', b.metadata.name ?? '']
  return na < nb ? -1 : na > nb ? 1 : 0
}

/** ReplicaSetsByRevision: lowest revision first; unreadable or equal revisions by creation. */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
  const [ra, rb] = [revisionOf(a), revisionOf(b)]
  if (ra === undefined || rb === undefined || ra === rb) return byCreation(a, b)
  return ra - rb
}

/** ReplicaSetsBySizeOlder: largest first, the older of equal sizes first (scaling down). */
export function bySizeOlder(a: ReplicaSet, b: ReplicaSet): number {
  return specReplicas(a) !== specReplicas(b) ? specReplicas(b) - specReplicas(a) : byCreation(a, b)
}

/** ReplicaSetsBySizeNewer: largest first, the newer of equal sizes first (scaling up). */
export function bySizeNewer(a: ReplicaSet, b: ReplicaSet): number {
  return specReplicas(a) !== specReplicas(b) ? specReplicas(b) - specReplicas(a) : byCreation(b, a)
}

/** FilterActiveReplicaSets: those with spec.replicas above zero. */
export function activeReplicaSets(list: readonly (ReplicaSet | undefined)[]): ReplicaSet[] {
  return list.filter((rs): rs is ReplicaSet => !!rs && specReplicas(rs) > 0)
}

const sum = (list: readonly (ReplicaSet | undefined)[], f: (rs: ReplicaSet) => number) =>
  list.reduce((n, rs) => n + (rs ? f(rs) : 0), 0)

/** GetReplicaCountForReplicaSets: the sum of spec.replicas. */
export const specReplicaCount = (list: readonly (ReplicaSet | undefined)[]) =>
  sum(list, specReplicas)
/** GetActualReplicaCountForReplicaSets: the sum of status.replicas. */
export const actualReplicaCount = (list: readonly (ReplicaSet | undefined)[]) =>
  sum(list, (rs) => intOr(rsStatus(rs).replicas, 0))
export const readyReplicaCount = (list: readonly (ReplicaSet | undefined)[]) =>
  sum(list, (rs) => intOr(rsStatus(rs).readyReplicas, 0))
export const availableReplicaCount = (list: readonly (ReplicaSet | undefined)[]) =>
  sum(list, (rs) => intOr(rsStatus(rs).availableReplicas, 0))

/**
 * FindNewReplicaSet: the oldest ReplicaSet whose template equals the Deployment's, ignoring the
 * pod-template-hash label. This is what makes `rollout undo` reuse the old ReplicaSet.
 */
export function findNewReplicaSet(
  d: Deployment,
  list: readonly ReplicaSet[],
): ReplicaSet | undefined {
  return [...list].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template))
}

/** FindOldReplicaSets (all of them, scaled down or not): every ReplicaSet but the new one. */
export function findOldReplicaSets(d: Deployment, list: readonly ReplicaSet[]): ReplicaSet[] {
  const newRS = findNewReplicaSet(d, list)
  return list.filter((rs) => rs !== newRS)
}

/** The desired-replicas annotation, if readable (GetDesiredReplicasAnnotation). */
export function desiredReplicasAnnotation(rs: ReplicaSet): number | undefined {
  return parseInt64(rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION])
}

export function maxReplicasAnnotation(rs: ReplicaSet): number | undefined {
  return parseInt64(rs.metadata.annotations?.[MAX_REPLICAS_ANNOTATION])
}

function annotationsOf(rs: ReplicaSet): Record<string, string> {
  rs.metadata.annotations ??= {}
  return rs.metadata.annotations
}

export function replicasAnnotationsNeedUpdate(
  rs: ReplicaSet,
  desired: number,
  max: number,
): boolean {
  const a = rs.metadata.annotations ?? {}
  return (
    a[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || a[MAX_REPLICAS_ANNOTATION] !== String(max)
  )
}

/** SetReplicasAnnotations: what the Deployment wanted when it last sized this ReplicaSet (read by proportional scaling). */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  if (!replicasAnnotationsNeedUpdate(rs, desired, max)) return false
  const a = annotationsOf(rs)
  a[DESIRED_REPLICAS_ANNOTATION] = String(desired)
  a[MAX_REPLICAS_ANNOTATION] = String(max)
  return true
}

/** copyDeploymentAnnotationsToReplicaSet: e.g. kubernetes.io/change-cause, which `rollout history` prints. */
function copyDeploymentAnnotations(d: Deployment, rs: ReplicaSet): boolean {
  let changed = false
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (annotationsToSkip.has(k) || rs.metadata.annotations?.[k] === v) continue
    annotationsOf(rs)[k] = v
    changed = true
  }
  return changed
}

/**
 * SetNewReplicaSetAnnotations: copies the Deployment's annotations, raises the revision to
 * `newRevision` when it is higher (a template rolled back to gets a new, higher revision and keeps
 * its former ones in revision-history), and on a ReplicaSet about to be created sets the replica
 * annotations. Returns whether anything changed.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: number,
  exists: boolean,
): boolean {
  let changed = copyDeploymentAnnotations(d, rs)
  const oldText = rs.metadata.annotations?.[REVISION_ANNOTATION]
  const old = oldText === undefined || oldText === '' ? 0 : parseInt64(oldText)
  if (old === undefined) return changed
  if (old < newRevision) {
    const a = annotationsOf(rs)
    a[REVISION_ANNOTATION] = String(newRevision)
    changed = true
    if (oldText !== undefined) appendRevisionHistory(a, oldText)
  }
  if (!exists && setReplicasAnnotations(rs, specReplicas(d), specReplicas(d) + maxSurge(d)))
    changed = true
  return changed
}

function appendRevisionHistory(a: Record<string, string>, oldRevision: string): void {
  const history = a[REVISION_HISTORY_ANNOTATION] ?? ''
  if (history === '') {
    a[REVISION_HISTORY_ANNOTATION] = oldRevision
    return
  }
  let entries = history.split(',')
  let total = history.length + oldRevision.length + 1
  let start = 0
  while (total > MAX_REVISION_HISTORY_CHARS && start < entries.length)
    total -= entries[start++].length + 1
  if (total > MAX_REVISION_HISTORY_CHARS) return
  entries = [...entries.slice(start), oldRevision]
  a[REVISION_HISTORY_ANNOTATION] = entries.join(',')
}

/** SetDeploymentRevision: the Deployment's revision annotation follows its new ReplicaSet's. */
export function setDeploymentRevision(d: Deployment, revision: string): boolean {
  d.metadata.annotations ??= {}
  if (d.metadata.annotations[REVISION_ANNOTATION] === revision) return false
  d.metadata.annotations[REVISION_ANNOTATION] = revision
  return true
}

/**
 * NewRSNewReplicas: the size the new ReplicaSet may have now. Rolling: up to spec.replicas +
 * maxSurge pods in total (maxSurge taken as given, not through the fenceposts), never beyond
 * spec.replicas for the new one. Recreate: all of spec.replicas at once.
 */
export function newRSNewReplicas(
  d: Deployment,
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet,
): number {
  const desired = specReplicas(d)
  if (strategyType(d) === RECREATE) return desired
  if (!isRollingUpdate(d)) return specReplicas(newRS)
  const surge = scaledValue(d.spec.strategy?.rollingUpdate?.maxSurge ?? 0, desired, true)
  const current = specReplicaCount(allRSs)
  const maxTotal = desired + surge
  if (current >= maxTotal) return specReplicas(newRS)
  return specReplicas(newRS) + Math.min(maxTotal - current, desired - specReplicas(newRS))
}

/**
 * IsSaturated: the ReplicaSet runs all of spec.replicas, was sized for exactly that, and all of them
 * are available.
 */
export function isSaturated(d: Deployment, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false
  const desired = specReplicas(d)
  return (
    specReplicas(rs) === desired &&
    desiredReplicasAnnotation(rs) === desired &&
    intOr(rsStatus(rs).availableReplicas, 0) === desired
  )
}

/** CloneSelectorAndAddLabel: the selector with one more matchLabels entry. */
export function cloneSelectorAndAddLabel(
  selector: MetaLabelSelector | null | undefined,
  key: string,
  value: string,
): MetaLabelSelector {
  const out: MetaLabelSelector = { matchLabels: { ...(selector?.matchLabels ?? {}), [key]: value } }
  if (selector?.matchExpressions) out.matchExpressions = structuredClone(selector.matchExpressions)
  return out
}
