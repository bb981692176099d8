import type { Status } from '../../apimachinery/types'
import { failure, qualifiedResource } from '../../apimachinery/status'
import type { ResourceDef } from '../../apis/registry'

/** admission.NewForbidden: `pods "web" is forbidden: <why>`. */
export function admissionForbidden(def: Pick<ResourceDef, 'group' | 'plural'>, name: string, why: string): Status {
  return failure(403, 'Forbidden', `${qualifiedResource(def.group, def.plural)} "${name}" is forbidden: ${why}`, { name, group: def.group, kind: def.plural })
}
