/** Tables for admissionregistration.k8s.io webhook configurations (columns of upstream's printers). */
import type { KubeObject } from '../apimachinery/types'
import { ageColumn, column, nameColumn, objectAge, objectName, type Printer } from './columns'
import { list } from './format'

export const webhookConfigurationPrinter: Printer = {
  columns: [nameColumn, column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks.'), ageColumn],
  cells(obj: KubeObject, now) {
    return [objectName(obj), list((obj as { webhooks?: unknown[] }).webhooks).length, objectAge(obj, now)]
  },
}
