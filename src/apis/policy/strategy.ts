/** policy/v1 PodDisruptionBudget: its strategy. */
import type { KindStrategy } from '../kind-strategy'
import { validatePodDisruptionBudget } from './validate-pdb'

export const podDisruptionBudgetStrategy: KindStrategy = { validate: validatePodDisruptionBudget }
