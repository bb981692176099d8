import type { Status } from '../apimachinery/types'
import { failure, qualifiedResource } from '../apimachinery/status'
import type { ResourceDef } from '../apis/resource-def'

/** admission.NewForbidden: `pods "web" is forbidden: <why>`. */
export function admissionForbidden(
  def: Pick<ResourceDef, 'group' | 'plural'>,
  name: string,
  why: string,
): Status {
  return failure(
    403,
    'Forbidden',
    `${qualifiedResource(def.group, def.plural)} "${name}" is forbidden: ${why}`,
    { name, group: def.group, kind: def.plural },
  )
}

/** errors.NewForbidden: `<resource> "<name>" is forbidden: <why>`, or `<resource> is forbidden: <why>` without a name. */
export function resourceForbidden(
  attrs: { group: string; resource: string },
  name: string,
  why: string,
): Status {
  const resource = qualifiedResource(attrs.group, attrs.resource)
  const subject = name ? `${resource} "${name}"` : resource
  return failure(403, 'Forbidden', `${subject} is forbidden: ${why}`, {
    name: name || undefined,
    group: attrs.group,
    kind: attrs.resource,
  })
}
