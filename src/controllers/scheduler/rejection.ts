/**
 * Why a filter turned a node down, in kube-scheduler's wording (the reasons are counted into the
 * FailedScheduling message). A rejection is `resolvable` when evicting pods could fix it (only
 * resource fit), which decides what the preemption part of the message says.
 */
export interface Rejection {
  reasons: string[]
  resolvable: boolean
}
