import type { KubeObject } from '../../src/apimachinery/types'
import { badRequest, expired, failure, type StoreResult } from '../../src/apimachinery/status'
import type { ChangeBatch, NamespaceContent } from '../../src/store-client/bindings'
import { compileFilter } from '../../src/apimachinery/object-filter'
import { SelectorError } from '../../src/apimachinery/labels'
import { decodeContinue, encodeContinue } from '../../src/apimachinery/continue-token'
import type { Log, StoredRow } from './log'
import type { ListOptions, ListResult } from '../../src/apis/store-options'
import { storeReplyBytes } from '../../src/config'
import { nodeScope } from './node-scope'

const continueExpired =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.'

/**
 * LIST with selectors, pagination from one snapshot, and resourceVersion semantics. A page ends at
 * `limit` items or once it holds `storeReplyBytes`, whichever comes first; as upstream allows, a
 * page may then hold fewer than `limit` items and carries a continue token.
 */
export function listObjects(
  log: Log,
  resource: string,
  opts: ListOptions,
): StoreResult<ListResult> {
  let matches: ((o: KubeObject) => boolean) | undefined
  try {
    matches = compileFilter(resource, opts)
  } catch (e) {
    if (e instanceof SelectorError) return { ok: false, status: badRequest(e.message) }
    throw e
  }
  let snapshotRv = log.currentRv
  let start = ''
  if (opts.continue) {
    const token = decodeContinue(opts.continue)
    if (!token) return { ok: false, status: badRequest('invalid continue token') }
    if (token.rv < log.compactedRv) return { ok: false, status: expired(continueExpired) }
    snapshotRv = token.rv
    start = token.start
  } else if (opts.resourceVersion && opts.resourceVersion !== '0') {
    const rv = Number(opts.resourceVersion)
    if (!Number.isInteger(rv) || rv < 0)
      return { ok: false, status: badRequest(`invalid resource version: ${opts.resourceVersion}`) }
    if (opts.resourceVersionMatch === 'Exact') {
      if (rv < log.compactedRv)
        return {
          ok: false,
          status: expired(`too old resource version: ${rv} (${log.compactedRv})`),
        }
      if (rv > log.currentRv)
        return {
          ok: false,
          status: failure(
            504,
            'Timeout',
            `Too large resource version: ${rv}, current: ${log.currentRv}`,
            { retryAfterSeconds: 1 },
          ),
        }
      snapshotRv = rv
    } else if (rv > log.currentRv) {
      return {
        ok: false,
        status: failure(
          504,
          'Timeout',
          `Too large resource version: ${rv}, current: ${log.currentRv}`,
          { retryAfterSeconds: 1 },
        ),
      }
    }
  } else if (opts.resourceVersionMatch && opts.resourceVersionMatch !== 'NotOlderThan') {
    return {
      ok: false,
      status: badRequest(`resourceVersionMatch is forbidden unless resourceVersion is provided`),
    }
  }
  // A pods list pinned to one node reads that node's rows by the node_name index.
  const scope = matches ? nodeScope(resource, opts) : undefined
  const rowMatches = scope?.only ? undefined : matches
  const rows: Iterable<StoredRow> =
    snapshotRv === log.currentRv
      ? log.scanCurrent(opts.namespace, start, scope?.node)
      : log.scanAt(snapshotRv, opts.namespace, start, scope?.node)
  const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity
  const items: string[] = []
  let lastKey = ''
  let more = false
  let bytes = 0
  for (const row of rows) {
    if (rowMatches && !rowMatches(JSON.parse(row.value) as KubeObject)) continue
    if (items.length >= limit || bytes >= storeReplyBytes) {
      more = true
      break
    }
    items.push(row.value)
    bytes += row.value.length
    lastKey = row.key
  }
  const result: ListResult = { items, resourceVersion: String(snapshotRv) }
  if (more) {
    result.continue = encodeContinue({ rv: snapshotRv, start: lastKey })
    if (!matches && snapshotRv === log.currentRv)
      result.remainingItemCount = log.countCurrent(opts.namespace, lastKey)
  }
  return { ok: true, value: result }
}

/**
 * Changes after `rv`, oldest first, at most `limit` and about `storeReplyBytes` (always at least
 * one): how controller caches stay current without holding a watch open. 410 Expired once the
 * log was compacted past `rv`.
 */
export function changesSince(log: Log, rv: number, limit: number): StoreResult<ChangeBatch> {
  if (rv < log.compactedRv)
    return {
      ok: false,
      status: expired(`too old resource version: ${rv} (${log.compactedRv})`),
    }
  const changes: ChangeBatch['changes'] = []
  let last = rv
  let bytes = 0
  for (const change of log.changesAfter(rv)) {
    if (
      changes.length >= limit ||
      (changes.length > 0 && bytes + change.value.length > storeReplyBytes)
    )
      return { ok: true, value: { changes, rv: last, more: true } }
    changes.push({ type: change.type, value: change.value })
    bytes += change.value.length
    last = change.rv
  }
  return { ok: true, value: { changes, rv: Math.max(last, log.currentRv), more: false } }
}

/**
 * How many objects a namespace still holds and the finalizers among them: what the namespace
 * controller reports while a terminating namespace waits for its content.
 */
export function namespaceContent(log: Log, namespace: string): NamespaceContent {
  const finalizers: Record<string, number> = {}
  let count = 0
  for (const row of log.scanCurrent(namespace, '')) {
    count++
    for (const f of (JSON.parse(row.value) as KubeObject).metadata.finalizers ?? [])
      finalizers[f] = (finalizers[f] ?? 0) + 1
  }
  return { count, finalizers }
}
