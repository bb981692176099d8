import { asRecord } from '../../apimachinery/json-value'
import { formatTime } from '../../apimachinery/meta-time'
import type { Action, Cache, Outcome } from '../runtime/types'
import { ensurePlan } from '../../apis/flowcontrol/ensure'
import {
  conditionsOf,
  notEnforcedCondition,
  wantedDangling,
  withConditions,
} from '../../apis/flowcontrol/conditions'
import { levelOf, parseKey, priorityLevels } from './keys'

/**
 * One object: first the bootstrap configuration kube-apiserver's config producer keeps (create,
 * restore, or delete), then its conditions: for a FlowSchema, the Dangling condition upstream's APF
 * controller keeps (True when no PriorityLevelConfiguration of the referenced name exists); for
 * both kinds, Enforced False, as this server handles no request by them.
 */
export function reconcileFlowcontrol(key: string, cache: Cache, now: number): Outcome {
  const { resource, kind, name } = parseKey(key)
  const current = cache.get(resource, undefined, name)
  const plan = ensurePlan(kind, name, current)
  if (plan?.type === 'create')
    return { actions: [{ type: 'create', resource, object: plan.object }] }
  if (plan?.type === 'update')
    return { actions: [{ type: 'update', resource, object: plan.object }] }
  if (plan?.type === 'delete') {
    return {
      actions: [
        {
          type: 'delete',
          resource,
          name,
          preconditions: {
            uid: current?.metadata.uid,
            resourceVersion: current?.metadata.resourceVersion,
          },
        },
      ],
    }
  }
  if (!current || current.metadata.deletionTimestamp) return { actions: [] }

  const wanted = [notEnforcedCondition]
  if (resource !== priorityLevels) {
    const level = levelOf(current)
    wanted.unshift(wantedDangling(level, cache.get(priorityLevels, undefined, level) !== undefined))
  }
  const conditions = withConditions(conditionsOf(current), wanted, formatTime(now))
  if (!conditions) return { actions: [] }
  const action: Action = {
    type: 'updateStatus',
    resource,
    object: { ...current, status: { ...asRecord(current.status), conditions } },
  }
  return { actions: [action] }
}
