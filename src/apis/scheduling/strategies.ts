/** The classes pods name: PriorityClass (scheduling.k8s.io/v1) and RuntimeClass (node.k8s.io/v1). */
import type { KindStrategy } from '../kind-strategy'
import {
  defaultPriorityClass,
  validatePriorityClass,
  validatePriorityClassUpdate,
} from '../priority-class'
import { validateRuntimeClass } from '../runtime-class'

export const priorityClassStrategy: KindStrategy = {
  defaults: defaultPriorityClass,
  validate: validatePriorityClass,
  validateUpdate: validatePriorityClassUpdate,
}

export const runtimeClassStrategy: KindStrategy = { validate: validateRuntimeClass }
