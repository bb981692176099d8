/** The 409 an apply answers when it would change fields other managers own, worded as kube-apiserver words it. */
import type { Status, StatusCause } from '../../apimachinery/types'
import { failure } from '../../apimachinery/status'
import { pathString, type Path } from './fieldset'
import type { ManagedFieldsEntry } from './managed'

export interface Conflict {
  entry: ManagedFieldsEntry
  path: Path
}

/** Appliers are named alone; updaters with the version they wrote, as upstream's printManager. */
function managerName(e: ManagedFieldsEntry): string {
  let s = JSON.stringify(e.manager)
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`
  if (e.operation === 'Update') s += ` using ${e.apiVersion}`
  return s
}

export function conflictStatus(conflicts: Conflict[]): Status {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${managerName(c.entry)}`,
    field: pathString(c.path),
  }))
  let message: string
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${managerName(conflicts[0]!.entry)}: ${pathString(conflicts[0]!.path)}`
  } else {
    const byManager = new Map<string, string[]>()
    for (const c of conflicts) {
      const name = managerName(c.entry)
      byManager.set(name, [...(byManager.get(name) ?? []), pathString(c.path)])
    }
    const lines: string[] = []
    for (const name of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${name}:`)
      for (const p of byManager.get(name)!) lines.push(`- ${p}`)
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`
  }
  return failure(409, 'Conflict', message, { causes })
}
