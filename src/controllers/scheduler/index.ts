export { schedulerController, type SchedulerOptions } from './controller'
export { reconcilePod } from './reconcile'
export { parseBytes, parseCount, parseCpuMillis, QuantityError } from '../../apimachinery/quantity'
