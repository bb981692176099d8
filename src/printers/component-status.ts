/** The ComponentStatus table: upstream's columns (Name, Status, Message, Error). */
import { column, nameColumn, objectName, type Printer } from './columns'

interface Condition {
  type?: string
  status?: string
  message?: string
  error?: string
}

export const componentStatusPrinter: Printer = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Status of the component conditions'),
    column('Message', 'string', 'Message of the component conditions'),
    column('Error', 'string', 'Error of the component conditions'),
  ],
  cells(obj) {
    const conditions = (Array.isArray(obj.conditions) ? obj.conditions : []) as Condition[]
    const healthy = conditions.find((c) => c.type === 'Healthy')
    const status =
      healthy?.status === 'True' ? 'Healthy' : healthy?.status === 'False' ? 'Unhealthy' : 'Unknown'
    return [objectName(obj), status, healthy?.message ?? '', healthy?.error ?? '']
  },
}
