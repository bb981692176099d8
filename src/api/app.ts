import { Hono } from 'hono'
import type { ApiBindings } from './bindings'
import { ApiError, failure } from '../apimachinery/status'
import { bearerAuth } from './authentication/authenticate'
import { prettyJson } from './http/pretty'
import { registerAuthRoutes } from './authentication/auth-routes'
import {
  aggregatedDiscovery,
  aggregatedDiscoveryType,
  apiGroup,
  apiGroupList,
  apiVersions,
  resourceList,
  wantsAggregated,
} from './discovery/discovery'
import { openapiGroupVersion, openapiIndex } from './discovery/openapi'
import { serveOpenapiV2 } from './discovery/openapi-v2'
import { serveNodeJoin } from './authentication/node-join'
import { canonicalUrl, parseRequest, parsedOf, recordParsed } from './http/request-info'
import { routeCoreSubresource } from './core-subresources'
import { agentPathNode } from '../agent-protocol/node-credential'
import { handleResource } from './resources'
import { ensureBootstrap } from './bootstrap/ensure-bootstrap'
import { jsonBody, statusResponse } from './http/respond'
import { serveTunnel } from './proxies/tunnel'
import { serveHeartbeat } from './node-heartbeat'
import { versionInfo } from './discovery/version'
import { customResources, servedResources } from '../store-client/custom-resources'
import { serveMetrics } from './views/metrics'
import { serveEventsV1 } from './views/events-v1'
import { serveHpaV1 } from './views/hpa-v1'
import { unservedAggregatedApi } from './discovery/aggregated-apis'

const notFoundStatus = () =>
  failure(404, 'NotFound', 'the server could not find the requested resource', {})

/** The API server: discovery, OpenAPI, health, and every resource route. */
export function buildApp() {
  const app = new Hono<{ Bindings: ApiBindings }>()

  // Outermost, so every JSON answer can be indented, errors included.
  app.use('*', prettyJson())
  // Then authentication, so the public paths too refuse a token that fails (bearerAuth lets anonymous requests through to them).
  app.use('*', bearerAuth())
  registerAuthRoutes(app)
  app.get('/version', (c) => c.json(versionInfo))
  for (const p of ['/healthz', '/readyz', '/livez']) app.get(p, (c) => c.text('ok'))
  // Not public: as upstream, only a user granted the nonResourceURL /metrics (here: the admin) reads it.
  app.get('/metrics', (c) => serveMetrics(c.env))

  app.get('/api', async (c) => {
    const served = await servedResources(c.env)
    if (wantsAggregated(c.req.header('Accept') ?? null))
      return new Response(JSON.stringify(aggregatedDiscovery(served, true)), {
        headers: { 'Content-Type': aggregatedDiscoveryType },
      })
    return c.json(apiVersions(new URL(c.req.url).host))
  })
  app.get('/apis', async (c) => {
    const served = await servedResources(c.env)
    if (wantsAggregated(c.req.header('Accept') ?? null))
      return new Response(JSON.stringify(aggregatedDiscovery(served, false)), {
        headers: { 'Content-Type': aggregatedDiscoveryType },
      })
    return c.json(apiGroupList(served))
  })
  app.get('/api/v1', async (c) => c.json(resourceList(await servedResources(c.env), '', 'v1')))
  app.get('/apis/:group', async (c) => {
    const doc = apiGroup(await servedResources(c.env), c.req.param('group'))
    return doc ? c.json(doc) : statusResponse(notFoundStatus())
  })
  app.get('/apis/:group/:version', async (c) => {
    const doc = resourceList(
      await servedResources(c.env),
      c.req.param('group'),
      c.req.param('version'),
    )
    if (doc) return c.json(doc)
    return (
      (await unservedAggregatedApi(c.env, c.req.param('group'), c.req.param('version'))) ??
      statusResponse(notFoundStatus())
    )
  })
  app.get('/openapi/v2', (c) => serveOpenapiV2(c.req.header('Accept') ?? null))
  app.get('/openapi/v3', async (c) => c.json(openapiIndex(await customResources(c.env))))
  app.get('/openapi/v3/*', async (c) => {
    const doc = openapiGroupVersion(
      await customResources(c.env),
      c.req.path.slice('/openapi/v3/'.length),
    )
    return doc ? c.json(doc) : statusResponse(notFoundStatus())
  })

  app.post('/agent/v1/nodes/:name/credential', (c) =>
    serveNodeJoin(c.req.raw, c.env, agentPathNode(parsedOf(c.req.raw).path, 'credential')!),
  )
  app.get('/agent/v1/nodes/:name/tunnel', (c) =>
    serveTunnel(c.req.raw, c.env, agentPathNode(parsedOf(c.req.raw).path, 'tunnel')!),
  )
  app.get('/agent/v1/nodes/:name/heartbeat', (c) =>
    serveHeartbeat(c.req.raw, c.env, agentPathNode(parsedOf(c.req.raw).path, 'heartbeat')!),
  )
  app.all('/api/v1/*', async (c) => {
    const parsed = parsedOf(c.req.raw)
    if (!parsed.info) return statusResponse(notFoundStatus())
    const routed = routeCoreSubresource(c.req.raw, c.env, parsed)
    if (routed) return routed
    await ensureBootstrap(c.env)
    return handleResource(c.req.raw, c.env, parsed.info)
  })
  app.all('/apis/events.k8s.io/v1/*', async (c) => {
    await ensureBootstrap(c.env)
    return serveEventsV1(c.req.raw, c.env)
  })
  app.all('/apis/autoscaling/v1/*', async (c) => {
    await ensureBootstrap(c.env)
    return serveHpaV1(c.req.raw, c.env)
  })
  app.all('/apis/:group/:version/*', async (c) => {
    await ensureBootstrap(c.env)
    const { info } = parsedOf(c.req.raw)
    if (!info) return statusResponse(notFoundStatus())
    const aggregated = await unservedAggregatedApi(c.env, info.group, info.version)
    if (aggregated) return aggregated
    return handleResource(c.req.raw, c.env, info)
  })

  app.notFound(() => statusResponse(notFoundStatus()))
  app.onError((err) => {
    if (err instanceof ApiError) return statusResponse(err.status)
    console.error('internal error', err)
    return jsonBody(failure(500, 'InternalError', `Internal error occurred: ${err.message}`), 500)
  })
  return {
    /** Every request is read once (parseRequest); the router, the authorizer and every handler see that one reading. */
    fetch(req: Request, env: ApiBindings, ctx?: ExecutionContext): Response | Promise<Response> {
      const url = new URL(req.url)
      const parsed = parseRequest(req.method, url)
      if ('kind' in parsed) return statusResponse(parsed)
      const canonical = canonicalUrl(url, parsed)
      const routed = canonical.href === url.href ? req : new Request(canonical, req)
      recordParsed(routed, parsed)
      return app.fetch(routed, env, ctx)
    },
  }
}
