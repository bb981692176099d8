import type { ControllerDefinition } from '../runtime/types'
import { allKeys, flowSchemas, keysFor, priorityLevels } from './keys'
import { reconcileFlowcontrol } from './reconcile'

/**
 * API Priority and Fairness configuration, kept as kube-apiserver keeps it (nothing here queues
 * or sheds requests): the mandatory and suggested FlowSchemas and PriorityLevelConfigurations
 * exist and are kept up to date by their auto-update rules, every FlowSchema's Dangling
 * condition says whether its priority level exists, and every object's Enforced condition says
 * that no request is handled by it.
 */
export function flowcontrolController(): ControllerDefinition {
  return {
    name: 'priority-and-fairness',
    watches: {
      kinds: [flowSchemas, priorityLevels],
      keysFor,
      allKeys,
    },
    reconcile: reconcileFlowcontrol,
  }
}
