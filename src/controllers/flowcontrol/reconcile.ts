import { asRecord } from '../../apimachinery/json-value'
import { formatTime } from '../../apimachinery/meta-time'
import type { Action, Cache, Outcome } from '../runtime/types'
import { ensurePlan } from '../../apis/flowcontrol/ensure'
import { conditionsOf, wantedDangling } from '../../apis/flowcontrol/conditions'
import { danglingCondition } from '../../apis/flowcontrol/names'
import { levelOf, parseKey, priorityLevels } from './keys'

/**
 * One object: first the bootstrap configuration kube-apiserver's config producer keeps (create,
 * restore, or delete), then, for a FlowSchema, the Dangling condition its APF controller keeps:
 * True when no PriorityLevelConfiguration of the referenced name exists.
 */
export function reconcileFlowcontrol(key: string, cache: Cache, now: number): Outcome {
  const { resource, kind, name } = parseKey(key)
  const current = cache.get(resource, undefined, name)
  const plan = ensurePlan(kind, name, current)
  if (plan?.type === 'create') return { actions: [{ type: 'create', resource, object: plan.object }] }
  if (plan?.type === 'update') return { actions: [{ type: 'update', resource, object: plan.object }] }
  if (plan?.type === 'delete') {
    return { actions: [{ type: 'delete', resource, name, preconditions: { uid: current?.metadata.uid, resourceVersion: current?.metadata.resourceVersion } }] }
  }
  if (!current || current.metadata.deletionTimestamp || resource === priorityLevels) return { actions: [] }

  const level = levelOf(current)
  const want = wantedDangling(level, cache.get(priorityLevels, undefined, level) !== undefined)
  const conditions = conditionsOf(current)
  const have = conditions.find((c) => c.type === danglingCondition)
  if (have && have.status === want.status && have.reason === want.reason && have.message === want.message) return { actions: [] }
  const next = { ...want, lastTransitionTime: formatTime(now) }
  const updated = have ? conditions.map((c) => (c === have ? next : c)) : [...conditions, next]
  const action: Action = { type: 'updateStatus', resource, object: { ...current, status: { ...asRecord(current.status), conditions: updated } } }
  return { actions: [action] }
}
