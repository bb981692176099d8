import type { KubeObject } from '../../apimachinery/types'
import { apiVersionOf } from '../../apis/registry'
import type { ResourceDef } from '../../apis/resource-def'
import { asRequestedVersion } from '../../apis/crd/version-view'
import type { ListResult } from '../../apis/store-options'
import { framedJsonResponse, jsonBody, jsonText } from './respond'
import { tableOf, wantsTable } from './table-negotiation'

const listHead = (def: ResourceDef, meta: Record<string, unknown>) =>
  `{"kind":"${def.kind}List","apiVersion":"${apiVersionOf(def)}","metadata":${JSON.stringify(meta)},"items":[`

const inVersion = (def: ResourceDef, items: string[]) =>
  def.custom?.multiVersion ? items.map((t) => asRequestedVersion(def, t)) : items

/** One page of a list as JSON (items already serialised), or as a Table when the client asks for one. */
export function listResponse(
  def: ResourceDef,
  stored: ListResult,
  req: Request,
  q: URLSearchParams,
): Response {
  const items = inVersion(def, stored.items)
  if (wantsTable(req.headers.get('Accept'))) {
    const objects = items.map((t) => JSON.parse(t) as KubeObject)
    return jsonBody(
      tableOf(def, objects, q, {
        resourceVersion: stored.resourceVersion,
        continue: stored.continue,
        remainingItemCount: stored.remainingItemCount,
      }),
    )
  }
  const meta: Record<string, unknown> = { resourceVersion: stored.resourceVersion }
  if (stored.continue) meta.continue = stored.continue
  if (stored.remainingItemCount !== undefined) meta.remainingItemCount = stored.remainingItemCount
  return jsonText(`${listHead(def, meta)}${items.join(',')}]}`)
}

/**
 * The answer to a LIST or deletecollection read from the store page by page. A client that set
 * `limit` gets the first page and its continue token. Otherwise it gets every page as one list:
 * streamed, so the Worker holds one page at a time however long the list (a Table is built
 * whole). The first page is read before the answer starts, so its errors still answer as a Status.
 */
export async function pagedListResponse(
  def: ResourceDef,
  pages: AsyncGenerator<ListResult>,
  req: Request,
  q: URLSearchParams,
  clientPages: boolean,
): Promise<Response> {
  const first = (await pages.next()).value as ListResult
  if (clientPages || !first.continue) return listResponse(def, first, req, q)
  const whole = { items: first.items, resourceVersion: first.resourceVersion }
  if (wantsTable(req.headers.get('Accept'))) {
    for await (const page of pages) whole.items.push(...page.items)
    return listResponse(def, whole, req, q)
  }
  const encoder = new TextEncoder()
  let wrote = first.items.length > 0
  const body = new ReadableStream<Uint8Array>({
    start(out) {
      out.enqueue(
        encoder.encode(
          listHead(def, { resourceVersion: first.resourceVersion }) +
            inVersion(def, first.items).join(','),
        ),
      )
    },
    async pull(out) {
      const next = await pages.next()
      if (next.done) {
        out.enqueue(encoder.encode(']}\n'))
        out.close()
        return
      }
      if (!next.value.items.length) return
      out.enqueue(encoder.encode((wrote ? ',' : '') + inVersion(def, next.value.items).join(',')))
      wrote = true
    },
    cancel() {
      void pages.return(undefined)
    },
  })
  return framedJsonResponse(body, { headers: { 'Content-Type': 'application/json' } })
}
