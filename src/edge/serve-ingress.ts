import type { ServiceBindings } from '../service-client/bindings'
import { ingressMatchPath } from './ingress-path'
import { ApiError } from '../apimachinery/status'
import { ingressMarkHeader } from '../apimachinery/ingress-mark'
import { buildRoutes, matchRoute, type RouteTable } from '../apis/ingress-routes'
import { fetchFromEndpoints, recentServiceEndpoints } from '../service-client/service-endpoints'
import { edgeIngresses, listAll } from './edge-objects'
import { settingsOf } from '../settings/settings'

/** Routes are rebuilt at most this often per isolate, so ingress requests do not each list three kinds. */
const routeTtlMs = 1_000

/**
 * Whether a request to the Worker is ingress traffic rather than an API call: marked by the local
 * launcher's ingress listener, or (when the API hostnames are configured) for any other host.
 */
export function isIngressRequest(req: Request, env: ServiceBindings): boolean {
  const mark = req.headers.get(ingressMarkHeader)
  if (mark !== null && env.EDGEPLANE_INGRESS_SECRET && mark === env.EDGEPLANE_INGRESS_SECRET)
    return true
  const apiHosts = settingsOf(env).apiHostHeaders
  if (!apiHosts.length) return false
  return !apiHosts.includes(hostname(req))
}

function hostname(req: Request): string {
  const host = req.headers.get('host') ?? new URL(req.url).host
  return host.replace(/:\d+$/, '').toLowerCase()
}

let cached: { at: number; table: Promise<RouteTable> } | undefined

function routeTable(env: ServiceBindings): Promise<RouteTable> {
  if (cached && Date.now() - cached.at < routeTtlMs) return cached.table
  const table = (async () => {
    const [{ ingresses, settings }, services] = await Promise.all([
      edgeIngresses(env),
      listAll(env, '', 'services'),
    ])
    return buildRoutes(ingresses, services, settings)
  })()
  cached = { at: Date.now(), table }
  table.catch(() => (cached = undefined))
  return table
}

/**
 * Headers that name the client or the request it first made. A client's own are dropped: only the
 * edge sets them, from the host and scheme it was asked for and from CF-Connecting-IP.
 */
const clientHeaders = [
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
  'forwarded',
  'true-client-ip',
]

const quoted = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`

/**
 * What the app is told of the client: the Host and scheme asked for, and the client's address,
 * which is CF-Connecting-IP only. Cloudflare sets that header on every request reaching the Worker
 * (a client's own is replaced), and the local ingress listener sets it from its socket's peer.
 */
function forwardedHeaders(req: Request, url: URL): Array<[string, string]> {
  const host = req.headers.get('host') ?? url.host
  const proto = url.protocol.replace(':', '')
  const headers: Array<[string, string]> = [
    ['X-Forwarded-Host', host],
    ['X-Forwarded-Proto', proto],
  ]
  const ip = req.headers.get('cf-connecting-ip')?.trim()
  if (ip && /^[0-9a-f.:]+$/i.test(ip)) {
    const node = ip.includes(':') ? quoted(`[${ip}]`) : ip
    headers.push(
      ['X-Forwarded-For', ip],
      ['X-Real-IP', ip],
      ['Forwarded', `for=${node};host=${quoted(host)};proto=${proto}`],
    )
  }
  return headers
}

const text = (status: number, body: string) =>
  new Response(`${body}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

/**
 * Serves ingress traffic at the edge: the matching Ingress rule (or LoadBalancer hostname) names
 * a Service port, and the request goes to one of its ready endpoints through that endpoint's node
 * tunnel, skipping nodes whose tunnel is down. No match is a 404.
 */
export async function serveIngress(req: Request, env: ServiceBindings): Promise<Response> {
  const headers = new Headers(req.headers)
  headers.delete(ingressMarkHeader)
  for (const name of clientHeaders) headers.delete(name)
  const clean = new Request(req, { headers })
  const url = new URL(req.url)
  const host = hostname(clean)
  const path = ingressMatchPath(url.pathname)
  if (path === undefined)
    return text(400, '400 Bad Request: the request path is not valid percent-encoded UTF-8')
  const backend = matchRoute(await routeTable(env), host, path)
  if (!backend)
    return text(
      404,
      `404 page not found: no Ingress rule matches host "${host}" and path "${path}"`,
    )
  let targets
  try {
    targets = await recentServiceEndpoints(env, backend.namespace, backend.service, backend.port)
  } catch (err) {
    if (err instanceof ApiError) return text(503, `503 Service Unavailable: ${err.status.message}`)
    throw err
  }
  const result = await fetchFromEndpoints(env, targets, clean, url.pathname + url.search, {
    host: clean.headers.get('host') ?? url.host,
    extraHeaders: forwardedHeaders(clean, url),
  })
  if (result.ok) return result.response
  if (result.unreachable)
    return text(
      503,
      `503 Service Unavailable: no node serving service ${backend.namespace}/${backend.service} is connected`,
    )
  if (result.message.startsWith('timed out'))
    return text(504, `504 Gateway Timeout: ${result.message}`)
  return text(502, `502 Bad Gateway: ${result.message}`)
}
