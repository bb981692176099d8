import type { PrinterColumn } from '../apis/resource-def'
import { evaluateJsonPath } from '../apimachinery/jsonpath'
import { printerCell } from './printer-cell'
import {
  column,
  genericPrinter,
  nameColumn,
  objectName,
  type ColumnType,
  type Printer,
} from './columns'

/**
 * The Table of a custom resource: Name, then the CRD version's additionalPrinterColumns, each
 * cell read by its JSONPath; Name and Age when the CRD declares none.
 */
export function customResourcePrinter(columns: readonly PrinterColumn[]): Printer {
  if (columns.length === 0) return genericPrinter
  return {
    columns: [
      nameColumn,
      ...columns.map((c) =>
        column(
          c.name,
          c.type as ColumnType,
          c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
          c.priority ?? 0,
          c.format ?? '',
        ),
      ),
    ],
    cells: (obj, now) => [
      objectName(obj),
      ...columns.map((c) => printerCell(c.type, evaluateJsonPath(c.jsonPath, obj), now)),
    ],
  }
}
