import type { KubeObject } from '../../apimachinery/types'
import { buildTable, type IncludeObject } from '../../printers/table'
import type { ResourceDef } from '../../apis/resource-def'
import { customResourcePrinter } from '../../printers/custom-resource'

/** kubectl asks for server-side printing with `Accept: application/json;as=Table;g=meta.k8s.io;v=v1`. */
export function wantsTable(accept: string | null): boolean {
  return /as=Table/.test(accept ?? '')
}

export function includeObjectOf(q: URLSearchParams): IncludeObject {
  const v = q.get('includeObject')
  return v === 'None' || v === 'Object' ? v : 'Metadata'
}

export function tableOf(
  def: ResourceDef,
  objects: KubeObject[],
  q: URLSearchParams,
  meta: {
    resourceVersion?: string
    continue?: string
    remainingItemCount?: number
    omitColumns?: boolean
  } = {},
) {
  const printer = def.custom ? customResourcePrinter(def.custom.columns) : undefined
  return buildTable(objects, {
    group: def.group,
    resource: def.plural,
    printer,
    includeObject: includeObjectOf(q),
    now: Date.now(),
    ...meta,
  })
}
