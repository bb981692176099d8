import type { Status, StatusCause, StatusDetails, StatusReason } from './types'

/** An error that carries the Kubernetes Status to answer with. */
export class ApiError extends Error {
  constructor(readonly status: Status) {
    super(status.message)
  }
}

/** The outcome of a store call: Workers RPC drops own properties of thrown errors, so failures travel as data. */
export type StoreResult<T> =
  | { ok: true; value: T; warnings?: string[] }
  | { ok: false; status: Status }

export function failure(
  code: number,
  reason: StatusReason,
  message: string,
  details?: StatusDetails,
): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  }
}

/** A Status as encoded: `status` and `code` are left out when empty, as every optional field is. */
export type EncodedStatus = Omit<Status, 'status' | 'code'> &
  Partial<Pick<Status, 'status' | 'code'>>

/**
 * The Status as kube-apiserver encodes metav1.Status: its fields in the Go struct's order (`details`
 * before `code`) and every empty optional field left out (an empty `group` or `name` of `details`,
 * a cause's empty `field`), whatever order the Status was built in.
 */
export function encodableStatus(status: Status): EncodedStatus {
  const details = status.details && encodableDetails(status.details)
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: status.metadata ?? {},
    ...(status.status ? { status: status.status } : {}),
    ...(status.message ? { message: status.message } : {}),
    ...(status.reason ? { reason: status.reason } : {}),
    ...(details ? { details } : {}),
    ...(status.code ? { code: status.code } : {}),
  }
}

function encodableDetails(details: StatusDetails): StatusDetails {
  const out: Record<string, unknown> = {}
  for (const key of ['name', 'group', 'kind', 'uid'] as const)
    if (details[key]) out[key] = details[key]
  const causes = (details.causes ?? []).map((c) => {
    const cause: Record<string, unknown> = {}
    for (const key of ['reason', 'message', 'field'] as const) if (c[key]) cause[key] = c[key]
    return cause
  })
  if (causes.length) out.causes = causes
  if (details.retryAfterSeconds) out.retryAfterSeconds = details.retryAfterSeconds
  return out as StatusDetails
}

/** A `Status` object (as opposed to any other JSON body). */
export function isStatus(value: unknown): value is Status {
  const v = value as Partial<Status> | null
  return (
    typeof v === 'object' &&
    v !== null &&
    v.kind === 'Status' &&
    v.apiVersion === 'v1' &&
    typeof v.metadata === 'object'
  )
}

/** Identifies the resource in messages the way kube-apiserver does: `deployments.apps`, `pods`. */
export function qualifiedResource(group: string, resource: string): string {
  return group ? `${resource}.${group}` : resource
}

export function notFound(group: string, resource: string, name: string): Status {
  return failure(404, 'NotFound', `${qualifiedResource(group, resource)} "${name}" not found`, {
    name,
    group,
    kind: resource,
  })
}

export function alreadyExists(group: string, resource: string, name: string): Status {
  return failure(
    409,
    'AlreadyExists',
    `${qualifiedResource(group, resource)} "${name}" already exists`,
    { name, group, kind: resource },
  )
}

export function conflict(group: string, resource: string, name: string, why: string): Status {
  return failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(group, resource)} "${name}": ${why}`,
    {
      name,
      group,
      kind: resource,
    },
  )
}

export const staleObjectMessage =
  'the object has been modified; please apply your changes to the latest version and try again'

export function invalid(group: string, kind: string, name: string, causes: StatusCause[]): Status {
  const lines = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : `${c.message}`))
  const message = `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`}`
  return failure(422, 'Invalid', message, { name, group, kind, causes })
}

export function badRequest(message: string, causes?: StatusCause[]): Status {
  return failure(400, 'BadRequest', message, causes ? { causes } : undefined)
}

export function expired(message: string): Status {
  return failure(410, 'Expired', message)
}

export function methodNotAllowed(message: string): Status {
  return failure(405, 'MethodNotAllowed', message)
}

export function success(details?: StatusDetails, code = 200): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    ...(details ? { details } : {}),
    code,
  }
}

/** Unwraps a store result, throwing its Status as an ApiError. */
export function unwrap<T>(result: StoreResult<T>): T {
  if (!result.ok) throw new ApiError(result.status)
  return result.value
}
