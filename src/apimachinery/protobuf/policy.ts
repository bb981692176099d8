import { LabelSelector, ObjectMeta } from './meta'
import { intstr, list, map, msg, str, strs, type Table } from './schema'

/** policy/v1 PodDisruptionBudget and core/v1 ResourceQuota (what `kubectl create pdb|quota` send). Status is the server's to write. */

export const PodDisruptionBudget: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => ({
    1: intstr('minAvailable'),
    2: msg('selector', () => LabelSelector),
    3: intstr('maxUnavailable'),
    4: str('unhealthyPodEvictionPolicy'),
  })),
  3: msg('status', () => ({})),
}

export const ResourceQuota: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: msg('spec', () => ({
    1: map('hard', 'quantity'),
    2: strs('scopes'),
    3: msg('scopeSelector', () => ({
      1: list('matchExpressions', () => ({
        1: str('scopeName'),
        2: str('operator'),
        3: strs('values'),
      })),
    })),
  })),
  3: msg('status', () => ({})),
}
