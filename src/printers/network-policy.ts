/** The NetworkPolicy table: upstream's columns (Name, Pod-Selector, Age). */
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'
import { formatLabelSelector } from './format'

export const networkPolicyPrinter: Printer = {
  columns: [
    nameColumn,
    column(
      'Pod-Selector',
      'string',
      'Selects the pods to which this NetworkPolicy object applies.',
    ),
    ageColumn,
  ],
  cells(obj, now) {
    const spec = (obj.spec ?? {}) as { podSelector?: Parameters<typeof formatLabelSelector>[0] }
    return [objectName(obj), formatLabelSelector(spec.podSelector ?? {}), objectAge(obj, now)]
  },
}
