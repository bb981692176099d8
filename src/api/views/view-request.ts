import type { KubeObject } from '../../apimachinery/types'
import { ApiError, badRequest } from '../../apimachinery/status'
import { derivedRequest } from '../http/request-state'
import { rewriteWatchObjects } from '../http/watch-rewrite'
import { queryFlag } from '../http/query'

/**
 * The scaffold of an API view (events.k8s.io/v1 over core Events, autoscaling/v1 over the stored
 * autoscaling/v2 HorizontalPodAutoscalers): the request re-issued under the stored version's path
 * on behalf of the same user, and the answer put back in the view's version.
 */

/** Watching a view is served over HTTP only: its stream is rewritten line by line. */
export function refuseViewWebSocket(req: Request, what: string): void {
  if (req.headers.get('Upgrade')?.toLowerCase() === 'websocket')
    throw new ApiError(
      badRequest(`watching ${what} over a WebSocket is not served; use an HTTP watch`),
    )
}

/** The request's URL under `to` instead of `from` (both path prefixes ending in `/`), query kept. */
export function viewTargetUrl(req: Request, from: string, to: string): URL {
  const url = new URL(req.url)
  url.pathname = to + url.pathname.slice(from.length)
  return url
}

/**
 * The request the stored version serves, made for `outer` (same user, same node rights): `body`
 * replaces the outer body (sized and typed as given, or keeping the outer Content-Type); without
 * one, a DELETE keeps its options body and other requests have none.
 */
export async function viewRequest(
  outer: Request,
  url: URL,
  method: string,
  body?: string,
  contentType?: string,
): Promise<Request> {
  if (body === undefined && method === 'DELETE' && outer.body)
    body = (await outer.text()) || undefined
  const headers = new Headers(outer.headers)
  if (body !== undefined) {
    headers.delete('Transfer-Encoding')
    headers.set('Content-Length', String(new TextEncoder().encode(body).byteLength))
    if (contentType) headers.set('Content-Type', contentType)
  }
  return derivedRequest(outer, url, { method, headers, body })
}

/** The stored version's answer (object, list, Table or watch stream) in the view's version. */
export async function answerInView(
  outer: Request,
  res: Response,
  convert: (doc: Record<string, unknown>) => unknown,
): Promise<Response> {
  const watch = queryFlag(new URL(outer.url).searchParams, 'watch')
  if (outer.method === 'GET' && watch && res.body)
    return new Response(res.body.pipeThrough(rewriteWatchObjects(convert)), res)
  if (!(res.headers.get('Content-Type') ?? '').startsWith('application/json')) return res
  return new Response(
    JSON.stringify(convert(JSON.parse(await res.text()) as Record<string, unknown>)),
    { status: res.status, headers: res.headers },
  )
}

/**
 * The conversion of an answer to the view: an object of `kind`, a list of them (in the view's
 * apiVersion), or a Table whose rows carry the whole object (includeObject=Object); anything else
 * (a Status) as it is.
 */
export function inViewVersion(
  kind: string,
  apiVersion: string,
  toView: (obj: KubeObject) => KubeObject,
): (doc: Record<string, unknown>) => unknown {
  const convert = (doc: Record<string, unknown>): unknown => {
    if (doc.kind === kind) return toView(doc as KubeObject)
    if (doc.kind === `${kind}List` && Array.isArray(doc.items))
      return { ...doc, apiVersion, items: (doc.items as KubeObject[]).map(toView) }
    if (doc.kind === 'Table' && Array.isArray(doc.rows))
      return {
        ...doc,
        rows: (doc.rows as { object?: Record<string, unknown> }[]).map((r) =>
          r.object?.kind === kind ? { ...r, object: convert(r.object) } : r,
        ),
      }
    return doc
  }
  return convert
}

/** A written body must name the view's apiVersion and kind, when it names them (as kube-apiserver's decoder). */
export function checkViewTypeMeta(
  obj: Record<string, unknown>,
  apiVersion: string,
  kind: string,
): void {
  if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersion)
    throw new ApiError(
      badRequest(
        `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersion})`,
      ),
    )
  if (obj.kind !== undefined && obj.kind !== kind)
    throw new ApiError(
      badRequest(
        `the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind})`,
      ),
    )
}
