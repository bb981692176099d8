import { ApiError, badRequest, invalid } from '../../apimachinery/status'
import type { StatusCause } from '../../apimachinery/types'
import type {
  DeleteOptions,
  FieldValidation,
  ListOptions,
  WriteOptions,
} from '../../apis/store-options'

/**
 * A boolean query parameter as kube-apiserver converts one (runtime.Convert_Slice_string_To_bool):
 * absent is false, `0` and `false` in any letter case are false, and any other value, the empty
 * one included, is true. So `watch=True` (the Python client's spelling) and `watch=1` both watch.
 */
export function queryFlag(q: URLSearchParams, key: string): boolean {
  const v = q.get(key)
  if (v === null) return false
  return v !== '0' && v.toLowerCase() !== 'false'
}

/**
 * kube-apiserver's checks of `sendInitialEvents` and, on a watch, `resourceVersionMatch`.
 * Streaming lists are not served: `sendInitialEvents` is refused as upstream refuses it for a list,
 * and for a watch when its WatchList feature is off, so clients fall back to list + watch.
 */
export function checkWatchListOptions(q: URLSearchParams, watch: boolean): void {
  const causes: StatusCause[] = []
  const forbid = (field: string, why: string) =>
    causes.push({ reason: 'FieldValueForbidden', field, message: `Forbidden: ${why}` })
  const initial = q.has('sendInitialEvents')
  const match = q.get('resourceVersionMatch') ?? ''
  if (!watch) {
    if (initial) forbid('sendInitialEvents', 'sendInitialEvents is forbidden for list')
  } else {
    if (initial) {
      if (match !== 'NotOlderThan')
        forbid(
          'resourceVersionMatch',
          'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        )
      forbid(
        'sendInitialEvents',
        'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      )
    }
    if (match) {
      if (!initial)
        forbid(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        )
      if (match !== 'NotOlderThan') {
        causes.push({
          reason: 'FieldValueNotSupported',
          field: 'resourceVersionMatch',
          message: `Unsupported value: ${JSON.stringify(match)}: supported values: "NotOlderThan"`,
        })
      }
    }
  }
  if (causes.length) throw new ApiError(invalid('meta.k8s.io', 'ListOptions', '', causes))
}

/** Write options from the query string (`dryRun`, `fieldValidation`, `fieldManager`). */
export function writeOptions(q: URLSearchParams): WriteOptions {
  const dryRun = q.getAll('dryRun')
  for (const d of dryRun)
    if (d !== 'All')
      throw new ApiError(badRequest(`dryRun: Unsupported value: "${d}": supported values: "All"`))
  const fv = q.get('fieldValidation')
  if (fv !== null && fv !== '' && !['Strict', 'Warn', 'Ignore'].includes(fv)) {
    throw new ApiError(
      badRequest(
        `fieldValidation: Unsupported value: "${fv}": supported values: "Ignore", "Strict", "Warn"`,
      ),
    )
  }
  return {
    dryRun: dryRun.length > 0,
    fieldValidation: (fv || 'Warn') as FieldValidation,
    fieldManager: q.get('fieldManager') ?? undefined,
  }
}

export function listOptions(q: URLSearchParams, namespace: string | undefined): ListOptions {
  const limitText = q.get('limit')
  const limit = limitText ? Number(limitText) : undefined
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0))
    throw new ApiError(badRequest(`invalid limit: ${limitText}`))
  return {
    namespace,
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    limit,
    continue: q.get('continue') || undefined,
    resourceVersion: q.get('resourceVersion') ?? undefined,
    resourceVersionMatch: q.get('resourceVersionMatch') ?? undefined,
  }
}

const policies = ['Orphan', 'Background', 'Foreground']

/** DeleteOptions from the body (if any) and the query string, the query winning as upstream. */
export function deleteOptions(
  q: URLSearchParams,
  body: Record<string, unknown> | undefined,
): DeleteOptions {
  const opts: DeleteOptions = { ...writeOptions(q) }
  if (body) {
    if (Array.isArray(body.dryRun) && body.dryRun.length) {
      for (const d of body.dryRun)
        if (d !== 'All')
          throw new ApiError(
            badRequest(`dryRun: Unsupported value: "${d}": supported values: "All"`),
          )
      opts.dryRun = true
    }
    if (typeof body.gracePeriodSeconds === 'number')
      opts.gracePeriodSeconds = body.gracePeriodSeconds
    if (typeof body.propagationPolicy === 'string')
      opts.propagationPolicy = body.propagationPolicy as DeleteOptions['propagationPolicy']
    if (body.orphanDependents === true && !opts.propagationPolicy) opts.propagationPolicy = 'Orphan'
    if (body.preconditions && typeof body.preconditions === 'object')
      opts.preconditions = body.preconditions as DeleteOptions['preconditions']
  }
  // The deprecated orphanDependents, from the query as the Python client sends it (`True`).
  if (q.has('orphanDependents') && queryFlag(q, 'orphanDependents') && !opts.propagationPolicy)
    opts.propagationPolicy = 'Orphan'
  const grace = q.get('gracePeriodSeconds')
  if (grace !== null) opts.gracePeriodSeconds = Number(grace)
  const policy = q.get('propagationPolicy')
  if (policy !== null) opts.propagationPolicy = policy as DeleteOptions['propagationPolicy']
  if (opts.propagationPolicy && !policies.includes(opts.propagationPolicy)) {
    throw new ApiError(
      badRequest(
        `propagationPolicy: Unsupported value: "${opts.propagationPolicy}": supported values: "Foreground", "Background", "Orphan"`,
      ),
    )
  }
  if (
    opts.gracePeriodSeconds !== undefined &&
    (!Number.isInteger(opts.gracePeriodSeconds) || opts.gracePeriodSeconds < 0)
  ) {
    throw new ApiError(
      badRequest(
        `gracePeriodSeconds: Invalid value: ${opts.gracePeriodSeconds}: must be greater than or equal to 0`,
      ),
    )
  }
  return opts
}
