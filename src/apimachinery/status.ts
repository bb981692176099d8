import type { Status, StatusCause, StatusDetails, StatusReason } from './types'

/** An error that carries the Kubernetes Status to answer with. */
export class ApiError extends Error {
  constructor(readonly status: Status) {
    super(status.message)
  }
}

/** The outcome of a store call: Workers RPC drops own properties of thrown errors, so failures travel as data. */
export type StoreResult<T> = { ok: true; value: T; warnings?: string[] } | { ok: false; status: Status }

export function failure(code: number, reason: StatusReason, message: string, details?: StatusDetails): Status {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }
  if (details) status.details = details
  return status
}

/** Identifies the resource in messages the way kube-apiserver does: `deployments.apps`, `pods`. */
export function qualifiedResource(group: string, resource: string): string {
  return group ? `${resource}.${group}` : resource
}

export function notFound(group: string, resource: string, name: string): Status {
  return failure(404, 'NotFound', `${qualifiedResource(group, resource)} "${name}" not found`, { name, group, kind: resource })
}

export function alreadyExists(group: string, resource: string, name: string): Status {
  return failure(409, 'AlreadyExists', `${qualifiedResource(group, resource)} "${name}" already exists`, { name, group, kind: resource })
}

export function conflict(group: string, resource: string, name: string, why: string): Status {
  return failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(group, resource)} "${name}": ${why}`, {
    name,
    group,
    kind: resource,
  })
}

export const staleObjectMessage = 'the object has been modified; please apply your changes to the latest version and try again'

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
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code }
  if (details) status.details = details
  return status
}

/** Unwraps a store result, throwing its Status as an ApiError. */
export function unwrap<T>(result: StoreResult<T>): T {
  if (!result.ok) throw new ApiError(result.status)
  return result.value
}
