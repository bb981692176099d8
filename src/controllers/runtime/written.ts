import type { KubeObject, Status } from '../../apimachinery/types'
import { ApiError } from '../../apimachinery/status'

/** A store's answer to a write: the object as written, or the Status it refused the write with. */
type WriteAnswer =
  | { ok: true; value: { object: string; pending?: boolean; deleted?: boolean } }
  | { ok: false; status: Status }

/** The object a write stored (and whether it still waits or went), or the API's refusal thrown as an ApiError. */
export function written(res: WriteAnswer): {
  object: KubeObject
  pending?: boolean
  deleted?: boolean
} {
  if (!res.ok) throw new ApiError(res.status)
  return {
    object: JSON.parse(res.value.object) as KubeObject,
    pending: res.value.pending,
    deleted: res.value.deleted,
  }
}
