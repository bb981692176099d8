import { ObjectMeta } from './meta'
import { bool, int, msg, str, type Table } from './schema'

/** scheduling.k8s.io/v1 PriorityClass (what `kubectl create priorityclass` sends). */
export const PriorityClass: Table = {
  1: msg('metadata', () => ObjectMeta),
  2: int('value'),
  3: bool('globalDefault'),
  4: str('description'),
  5: str('preemptionPolicy'),
}
