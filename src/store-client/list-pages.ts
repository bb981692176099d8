import type { StoreBindings } from './bindings'
import type { ResourceDef } from '../apis/resource-def'
import { unwrap } from '../apimachinery/status'
import type { DeleteOptions, ListOptions, ListResult } from '../apis/store-options'
import { storeFor } from './stores'

/**
 * The pages of one LIST, all from the snapshot of the first: the store ends a page at `limit` or
 * at its reply budget, and each further page is asked for with the previous continue token.
 */
export async function* listPages(
  env: StoreBindings,
  def: Pick<ResourceDef, 'group' | 'plural'>,
  opts: ListOptions,
): AsyncGenerator<ListResult> {
  const store = storeFor(env, def)
  let page = unwrap(await store.list(def.plural, opts))
  yield page
  while (page.continue) {
    page = unwrap(await store.list(def.plural, { ...opts, continue: page.continue }))
    yield page
  }
}

/** deletecollection, page by page: each page's objects are deleted as the caller takes it. */
export async function* deletePages(
  env: StoreBindings,
  def: ResourceDef,
  namespace: string | undefined,
  opts: ListOptions,
  del: DeleteOptions,
): AsyncGenerator<ListResult> {
  const store = storeFor(env, def)
  let page = unwrap(
    await store.deleteCollection(
      { def, namespace },
      { ...opts, limit: undefined, continue: undefined },
      del,
    ),
  )
  yield page
  while (page.continue) {
    page = unwrap(
      await store.deleteCollection(
        { def, namespace },
        { ...opts, limit: undefined, continue: page.continue },
        del,
      ),
    )
    yield page
  }
}

/** Runs a paged read or delete to its end and returns every item: for kinds the Worker itself reads whole. */
export async function allItems(pages: AsyncGenerator<ListResult>): Promise<string[]> {
  const items: string[] = []
  for await (const page of pages) items.push(...page.items)
  return items
}
