import type { KubeObject } from '../../src/apimachinery/types'
import type { StoreResult } from '../../src/apimachinery/status'
import { storeReplyBytes } from '../../src/config'
import type {
  DeleteOptions,
  ItemResult,
  ListOptions,
  ListResult,
  Target,
  WriteResult,
} from '../../src/apis/store-options'
import type { Log } from './log'
import { listObjects } from './reads'
import type { Writer } from './writes'

/** Runs writes in order, each answered on its own, until the answers hold `storeReplyBytes`. */
export function eachWithin<T>(
  items: readonly T[],
  write: (item: T) => StoreResult<WriteResult>,
): ItemResult[] {
  const results: ItemResult[] = []
  let bytes = 0
  for (const item of items) {
    if (bytes >= storeReplyBytes) break
    const result = write(item)
    results.push(result.ok ? { object: result.value.object } : { status: result.status })
    bytes += result.ok ? result.value.object.length : 0
  }
  return results
}

/**
 * Deletes the objects of one LIST page the options select, each as a single delete would. The
 * answer carries the page's continue token: the caller deletes the next page with it, so every
 * page comes from the snapshot of the first and no reply outgrows `storeReplyBytes`.
 */
export function deletePage(
  log: Log,
  writer: Writer,
  t: Omit<Target, 'name'>,
  list: ListOptions,
  opts: DeleteOptions,
): StoreResult<ListResult> {
  const listed = listObjects(log, t.def.plural, {
    ...list,
    namespace: t.namespace,
    limit: undefined,
  })
  if (!listed.ok) return listed
  const items: string[] = []
  for (const text of listed.value.items) {
    const obj = JSON.parse(text) as KubeObject
    const res = writer.delete(
      { ...t, namespace: obj.metadata.namespace, name: obj.metadata.name! },
      opts,
    )
    if (res.ok) items.push(res.value.object)
  }
  const page: ListResult = { items, resourceVersion: String(log.currentRv) }
  if (listed.value.continue) page.continue = listed.value.continue
  return { ok: true, value: page }
}
