import type { KubeObject } from '../../apimachinery/types'
import type { FieldCause } from '../../apimachinery/validation'
import type { ResourceDef } from '../registry'
import { validateLimitRange } from '../limit-range/object'
import { validateResourceQuota } from '../quota/validate'
import { validatePodDisruptionBudget } from './validate-pdb'

/** Spec rules of the kinds that bound disruption and consumption; undefined for any other kind. */
export function validatePolicyObject(def: Pick<ResourceDef, 'group' | 'kind'>, obj: KubeObject): FieldCause[] | undefined {
  if (def.group === 'policy' && def.kind === 'PodDisruptionBudget') return validatePodDisruptionBudget(obj)
  if (def.group === '' && def.kind === 'ResourceQuota') return validateResourceQuota(obj)
  if (def.group === '' && def.kind === 'LimitRange') return validateLimitRange(obj)
  return undefined
}
