import type { Env } from '../env'
import type { KubeObject } from '../apimachinery/types'
import { ApiError, unwrap } from '../apimachinery/status'
import { findResource } from '../apis/registry'
import { storeFor } from '../store-client/stores'
import { buildRoutes, defaultLbDomain, edgeIngressClass, isDefaultClass, matchRoute, type RouteTable } from '../apis/ingress-routes'
import { fetchFromEndpoints, recentServiceEndpoints } from '../service-client/service-endpoints'

/** The header the local launcher's ingress listener marks requests with (value: its secret). */
export const ingressMarkHeader = 'x-edgeplane-ingress'
/** Routes are rebuilt at most this often per isolate, so ingress requests do not each list three kinds. */
const routeTtlMs = 1_000

/**
 * Whether a request to the Worker is ingress traffic rather than an API call: marked by the local
 * launcher's ingress listener, or (when the API hostnames are configured) for any other host.
 */
export function isIngressRequest(req: Request, env: Env): boolean {
  const mark = req.headers.get(ingressMarkHeader)
  if (mark !== null && env.EDGEPLANE_INGRESS_SECRET && mark === env.EDGEPLANE_INGRESS_SECRET) return true
  if (!env.EDGEPLANE_API_HOST) return false
  const host = hostname(req)
  return !env.EDGEPLANE_API_HOST.split(',').map((h) => h.trim().toLowerCase()).includes(host)
}

function hostname(req: Request): string {
  const host = req.headers.get('host') ?? new URL(req.url).host
  return host.replace(/:\d+$/, '').toLowerCase()
}

let cached: { at: number; table: Promise<RouteTable> } | undefined

async function listAll(env: Env, group: string, resource: string): Promise<KubeObject[]> {
  const def = findResource(group, 'v1', resource)!
  const res = unwrap(await storeFor(env, def).list(resource, {}))
  return res.items.map((i) => JSON.parse(i) as KubeObject)
}

function routeTable(env: Env): Promise<RouteTable> {
  if (cached && Date.now() - cached.at < routeTtlMs) return cached.table
  const table = (async () => {
    const [ingresses, services, classes] = await Promise.all([listAll(env, 'networking.k8s.io', 'ingresses'), listAll(env, '', 'services'), listAll(env, 'networking.k8s.io', 'ingressclasses')])
    const edgeIsDefault = isDefaultClass(classes.find((c) => c.metadata.name === edgeIngressClass))
    return buildRoutes(ingresses, services, edgeIsDefault, env.EDGEPLANE_LB_DOMAIN || defaultLbDomain)
  })()
  cached = { at: Date.now(), table }
  table.catch(() => (cached = undefined))
  return table
}

const text = (status: number, body: string) => new Response(`${body}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })

/**
 * Serves ingress traffic at the edge: the matching Ingress rule (or LoadBalancer hostname) names
 * a Service port, and the request goes to one of its ready endpoints through that endpoint's node
 * tunnel, skipping nodes whose tunnel is down. No match is a 404.
 */
export async function serveIngress(req: Request, env: Env): Promise<Response> {
  const headers = new Headers(req.headers)
  headers.delete(ingressMarkHeader)
  const clean = new Request(req, { headers })
  const url = new URL(req.url)
  const host = hostname(clean)
  const backend = matchRoute(await routeTable(env), host, url.pathname)
  if (!backend) return text(404, `404 page not found: no Ingress rule matches host "${host}" and path "${url.pathname}"`)
  let targets
  try {
    targets = await recentServiceEndpoints(env, backend.namespace, backend.service, backend.port)
  } catch (err) {
    if (err instanceof ApiError) return text(503, `503 Service Unavailable: ${err.status.message}`)
    throw err
  }
  const forwarded: Array<[string, string]> = [
    ['X-Forwarded-Host', clean.headers.get('host') ?? url.host],
    ['X-Forwarded-Proto', url.protocol.replace(':', '')],
  ]
  const ip = clean.headers.get('cf-connecting-ip')
  if (ip) forwarded.push(['X-Forwarded-For', ip])
  const result = await fetchFromEndpoints(env, targets, clean, url.pathname + url.search, { host: clean.headers.get('host') ?? url.host, extraHeaders: forwarded })
  if (result.ok) return result.response
  if (result.unreachable) return text(503, `503 Service Unavailable: no node serving service ${backend.namespace}/${backend.service} is connected`)
  if (result.message.startsWith('timed out')) return text(504, `504 Gateway Timeout: ${result.message}`)
  return text(502, `502 Bad Gateway: ${result.message}`)
}
