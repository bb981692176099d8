/** The apply-related options a write request carries. */
import type { ApplyWriteOptions, WriteOptions } from '../../apis/store-options'
import { queryFlag } from './query'

/**
 * The manager a write is recorded under: `fieldManager` when given, otherwise the User-Agent's
 * product name (`kubectl/v1.32.0 (linux/amd64) …` → `kubectl`), as kube-apiserver derives it.
 */
export function fieldManagerOf(req: Request, q: URLSearchParams): string | undefined {
  const given = q.get('fieldManager')
  if (given) return given
  const agent = req.headers.get('User-Agent')
  if (!agent) return undefined
  return agent.split('/')[0]!.slice(0, 128) || undefined
}

/** Adds the manager and `force` (a query flag) to the options parsed from the query. */
export function withApplyOptions(
  opts: WriteOptions,
  req: Request,
  q: URLSearchParams,
): ApplyWriteOptions {
  return { ...opts, fieldManager: fieldManagerOf(req, q), force: queryFlag(q, 'force') }
}
