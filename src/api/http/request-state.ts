/**
 * What the API server learns about a request on its way in (the authenticated user, what a node
 * may write), kept beside the Request object. A request the server derives from another (an API
 * view re-issued against the stored version, a dry-run trial of a write) carries all of it.
 */
const associations: WeakMap<Request, unknown>[] = []

/** A per-request association that every derived request carries. */
export function perRequest<T>(): WeakMap<Request, T> {
  const map = new WeakMap<Request, T>()
  associations.push(map as WeakMap<Request, unknown>)
  return map
}

/** A new request (another URL, method or body) made on behalf of `outer`: same user, same node rights. */
export function derivedRequest(
  outer: Request,
  url: URL | string,
  init: RequestInit | Request,
): Request {
  const inner = new Request(url, init)
  for (const map of associations) if (map.has(outer)) map.set(inner, map.get(outer))
  return inner
}
