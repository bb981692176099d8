import { type Condition, getCondition, setCondition } from '../../apimachinery/conditions'
import { formatTime } from '../../apimachinery/meta-time'

/** Job condition types, reasons and messages as kube-controller-manager v1.32 writes them. */
export const FAILURE_TARGET = 'FailureTarget'
export const SUCCESS_CRITERIA_MET = 'SuccessCriteriaMet'

export interface Finish {
  reason: string
  message: string
}

export const backoffLimitExceeded: Finish = {
  reason: 'BackoffLimitExceeded',
  message: 'Job has reached the specified backoff limit',
}
export const deadlineExceeded: Finish = {
  reason: 'DeadlineExceeded',
  message: 'Job was active longer than specified deadline',
}
export const completionsReached: Finish = {
  reason: 'CompletionsReached',
  message: 'Reached expected number of succeeded pods',
}

/** newCondition: probe and transition times are both now. */
export function withCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
  status: 'True' | 'False',
  finish: Finish,
  now: number,
): Condition[] {
  const at = formatTime(now)
  return setCondition(conditions, {
    type,
    status,
    lastProbeTime: at,
    lastTransitionTime: at,
    reason: finish.reason,
    message: finish.message,
  } as Condition)
}

/** The interim condition's reason, once a Job has been marked to fail or succeed. */
export function interim(
  conditions: readonly Condition[] | undefined,
  type: string,
): Finish | undefined {
  const c = getCondition(conditions, type)
  return c?.status === 'True' ? { reason: c.reason ?? '', message: c.message ?? '' } : undefined
}

export function isTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return getCondition(conditions, type)?.status === 'True'
}
