/** Tables for apiregistration.k8s.io APIServices (columns of kube-aggregator's table convertor). */
import type { KubeObject } from '../apimachinery/types'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'
import { conditionsOf, specOf } from '../apis/apiregistration/apiservice'

/** `Local` for an APIService this server answers itself, else the Service's `namespace/name`. */
function service(obj: KubeObject): string {
  const ref = specOf(obj).service
  return ref ? `${ref.namespace ?? ''}/${ref.name ?? ''}` : 'Local'
}

/** The Available condition's status, with its reason when it is not True; Unknown when there is none. */
function available(obj: KubeObject): string {
  const c = conditionsOf(obj).find((x) => x.type === 'Available')
  if (!c) return 'Unknown'
  if (c.status !== 'True' && c.reason) return `${c.status} (${c.reason})`
  return c.status
}

export const apiServicePrinter: Printer = {
  columns: [
    nameColumn,
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    ageColumn,
  ],
  cells: (obj, now) => [objectName(obj), service(obj), available(obj), objectAge(obj, now)],
}
