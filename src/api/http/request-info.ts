import type { Status } from '../../apimachinery/types'
import { ApiError, badRequest, failure } from '../../apimachinery/status'
import { queryFlag } from './query'

/** What a resource URL addresses, as kube-apiserver's RequestInfo. */
export interface RequestInfo {
  group: string
  version: string
  namespace?: string
  resource: string
  name?: string
  subresource?: string
}

/**
 * A request as the server reads it, once: the decoded path that is authorized and routed, the
 * kube-apiserver verb, and for a resource request what it addresses. Nothing reads the path again.
 */
export interface ParsedRequest {
  /** the decoded path: one `/` between segments, no trailing `/` (`/` itself excepted) */
  path: string
  verb: string
  /** set for a resource request (below `/api/v1` or `/apis/{group}/{version}`) */
  info?: RequestInfo
  /** after a `proxy` subresource: the proxied path as the client encoded it (`/` when none) */
  proxyPath?: string
}

/** A namespace's own subresources (`namespaces/{name}/status`), as upstream's RequestInfoFactory. */
const namespaceSubresources = new Set(['status', 'finalize'])

const notFound = (): Status =>
  failure(404, 'NotFound', 'the server could not find the requested resource', {})

/**
 * Reads a request's path and method once, as kube-apiserver's RequestInfoFactory does over the
 * decoded path. Each segment is percent-decoded once; a path whose decoding would change its
 * meaning is refused before anything acts on it: a segment that decodes to `.` or `..` or holds
 * an encoded `/` is a 400 (no name may be `.`, `..` or hold a `/`, as upstream's
 * ValidatePathSegmentName), an empty segment (a doubled slash) a 404. Only what follows a `proxy`
 * subresource is the proxied service's, and is passed on as the client wrote it.
 */
export function parseRequest(method: string, url: URL): ParsedRequest | Status {
  const raw = url.pathname.split('/').slice(1)
  const decoded: string[] = []
  for (const segment of raw) {
    try {
      decoded.push(decodeURIComponent(segment))
    } catch {
      return failure(400, 'BadRequest', 'the request path is not valid percent-encoded UTF-8')
    }
  }
  const tailAt = proxyTailIndex(decoded)
  const own = tailAt === undefined ? decoded : decoded.slice(0, tailAt)
  if (own.length > 1 && own[own.length - 1] === '') own.pop()
  const path = '/' + own.join('/')
  if (own.length === 1 && own[0] === '') return { path: '/', verb: plainVerb(method) }
  for (const segment of own) {
    if (segment === '') return notFound()
    if (segment === '.' || segment === '..')
      return badRequest(
        `invalid request path ${JSON.stringify(path)}: a segment may not be "." or ".."`,
      )
    if (segment.includes('/'))
      return badRequest(
        `invalid request path ${JSON.stringify(url.pathname)}: a segment may not hold an encoded "/"`,
      )
  }
  const info = resourceInfo(own)
  if (!info) return { path, verb: plainVerb(method) }
  const parsed: ParsedRequest = { path, verb: resourceVerb(method, info, url.searchParams), info }
  if (tailAt !== undefined) parsed.proxyPath = '/' + raw.slice(tailAt).join('/')
  return parsed
}

/** Where the proxied path starts, when the path is a resource's `proxy` subresource followed by more. */
function proxyTailIndex(parts: string[]): number | undefined {
  const prefix = parts[0] === 'api' ? 2 : parts[0] === 'apis' ? 3 : undefined
  if (prefix === undefined) return undefined
  const namespaced =
    parts[prefix] === 'namespaces' &&
    parts.length > prefix + 2 &&
    !namespaceSubresources.has(parts[prefix + 2]!)
  const sub = prefix + (namespaced ? 5 : 3)
  return parts[sub - 1] === 'proxy' && parts.length > sub ? sub : undefined
}

/** The resource a path below `/api/{version}` or `/apis/{group}/{version}` addresses. */
function resourceInfo(parts: string[]): RequestInfo | undefined {
  let group: string
  let version: string
  let rest: string[]
  if (parts[0] === 'api' && parts.length > 2)
    [group, version, rest] = ['', parts[1]!, parts.slice(2)]
  else if (parts[0] === 'apis' && parts.length > 3)
    [group, version, rest] = [parts[1]!, parts[2]!, parts.slice(3)]
  else return undefined
  return parseResourcePath(group, version, rest)
}

/**
 * `[namespaces/{ns}/]{resource}[/{name}[/{subresource}]]` over decoded segments. `namespaces/{name}`
 * and its `status` and `finalize` address the Namespace itself.
 */
export function parseResourcePath(
  group: string,
  version: string,
  parts: string[],
): RequestInfo | undefined {
  if (parts.length === 0) return undefined
  if (parts[0] === 'namespaces' && parts.length >= 3 && !namespaceSubresources.has(parts[2]!)) {
    const [, namespace, resource, name, subresource, ...extra] = parts
    if (extra.length) return undefined
    return withoutUndefined({ group, version, namespace, resource: resource!, name, subresource })
  }
  const [resource, name, subresource, ...extra] = parts
  if (extra.length) return undefined
  return withoutUndefined({ group, version, resource: resource!, name, subresource })
}

function withoutUndefined(info: RequestInfo): RequestInfo {
  for (const key of ['namespace', 'name', 'subresource'] as const)
    if (info[key] === undefined) delete info[key]
  return info
}

function plainVerb(method: string): string {
  const m = method.toUpperCase()
  return m === 'GET' || m === 'HEAD' ? 'get' : m.toLowerCase()
}

/** kube-apiserver's verb for a resource request. */
function resourceVerb(method: string, info: RequestInfo, q: URLSearchParams): string {
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
      return info.name ? 'get' : queryFlag(q, 'watch') ? 'watch' : 'list'
    case 'POST':
      return 'create'
    case 'PUT':
      return 'update'
    case 'PATCH':
      return 'patch'
    case 'DELETE':
      return info.name ? 'delete' : 'deletecollection'
    default:
      return method.toLowerCase()
  }
}

/** The URL the router sees: the parsed path, each segment encoded once, the proxied path and query as sent. */
export function canonicalUrl(url: URL, parsed: ParsedRequest): URL {
  const out = new URL(url.href)
  const own = parsed.path === '/' ? '/' : parsed.path.split('/').map(encodeSegment).join('/')
  out.pathname = own + (parsed.proxyPath ?? '')
  return out
}

/** A segment percent-encoded so that a router's decodeURI gives it back unchanged and whole. */
const encodeSegment = (s: string) => encodeURIComponent(s)

const parsedRequests = new WeakMap<Request, ParsedRequest>()

/** Records the one reading of a request, made where it enters the server. */
export function recordParsed(req: Request, parsed: ParsedRequest): void {
  parsedRequests.set(req, parsed)
}

/**
 * The one reading of a request: the one recorded where it entered the server, else (a request
 * made in a test) read now; a path that can't be read is an ApiError with its Status.
 */
export function parsedOf(req: Request): ParsedRequest {
  const recorded = parsedRequests.get(req)
  if (recorded) return recorded
  const parsed = parseRequest(req.method, new URL(req.url))
  if ('kind' in parsed) throw new ApiError(parsed)
  parsedRequests.set(req, parsed)
  return parsed
}
