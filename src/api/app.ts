import { Hono } from 'hono'
import type { Env } from '../env'
import { ApiError, failure } from '../apimachinery/status'
import { bearerAuth } from './auth'
import { prettyJson } from './pretty'
import { registerAuthRoutes } from './auth-routes'
import { aggregatedDiscovery, aggregatedDiscoveryType, apiGroup, apiGroupList, apiVersions, resourceList, wantsAggregated } from './discovery'
import { openapiGroupVersion, openapiIndex } from './openapi'
import { serveOpenapiV2 } from './openapi-v2'
import { serveNodeJoin } from './node-join'
import { servePodExec } from './pod-exec'
import { servePodLogs } from './pod-logs'
import { servePodPortForward } from './pod-portforward'
import { serveProxy } from './proxy'
import { parseResourcePath } from './request-info'
import { handleResource } from './resources'
import { ensureBootstrap } from './namespaces'
import { jsonBody, statusResponse } from './respond'
import { serveTunnel } from './tunnel'
import { versionInfo } from './version'
import { customResources, servedResources } from '../store-client/custom-resources'
import { serveMetrics } from '../../durable-objects/controller-host/metrics'
import { serveComponentStatuses } from './component-statuses'
import { serveEventsV1 } from './events-v1'
import { serveHpaV1 } from './hpa-v1'
import { unservedAggregatedApi } from './aggregated-apis'

const notFoundStatus = () => failure(404, 'NotFound', 'the server could not find the requested resource', {})

/** The API server: discovery, OpenAPI, health, and every resource route. */
export function buildApp() {
  const app = new Hono<{ Bindings: Env }>()

  // Outermost, so every JSON answer can be indented, errors included.
  app.use('*', prettyJson())
  // A path that does not decode names nothing: 400, before any handler reads it.
  app.use('*', async (c, next) => {
    try {
      decodeURIComponent(new URL(c.req.url).pathname)
    } catch {
      return statusResponse(failure(400, 'BadRequest', 'the request path is not valid percent-encoded UTF-8'))
    }
    return next()
  })
  // Then authentication, so the public paths too refuse a token that fails (bearerAuth lets anonymous requests through to them).
  app.use('*', bearerAuth())
  registerAuthRoutes(app)
  app.get('/version', (c) => c.json(versionInfo))
  for (const p of ['/healthz', '/readyz', '/livez']) app.get(p, (c) => c.text('ok'))
  // Not public: as upstream, only a user granted the nonResourceURL /metrics (here: the admin) reads it.
  app.get('/metrics', (c) => serveMetrics(c.env))

  app.get('/api', async (c) => {
    const served = await servedResources(c.env)
    if (wantsAggregated(c.req.header('Accept') ?? null)) return new Response(JSON.stringify(aggregatedDiscovery(served, true)), { headers: { 'Content-Type': aggregatedDiscoveryType } })
    return c.json(apiVersions(new URL(c.req.url).host))
  })
  app.get('/apis', async (c) => {
    const served = await servedResources(c.env)
    if (wantsAggregated(c.req.header('Accept') ?? null)) return new Response(JSON.stringify(aggregatedDiscovery(served, false)), { headers: { 'Content-Type': aggregatedDiscoveryType } })
    return c.json(apiGroupList(served))
  })
  app.get('/api/v1', async (c) => c.json(resourceList(await servedResources(c.env), '', 'v1')))
  app.get('/apis/:group', async (c) => {
    const doc = apiGroup(await servedResources(c.env), c.req.param('group'))
    return doc ? c.json(doc) : statusResponse(notFoundStatus())
  })
  app.get('/apis/:group/:version', async (c) => {
    const doc = resourceList(await servedResources(c.env), c.req.param('group'), c.req.param('version'))
    if (doc) return c.json(doc)
    return (await unservedAggregatedApi(c.env, c.req.param('group'), c.req.param('version'))) ?? statusResponse(notFoundStatus())
  })
  app.get('/openapi/v2', (c) => serveOpenapiV2(c.req.header('Accept') ?? null))
  app.get('/openapi/v3', async (c) => c.json(openapiIndex(await customResources(c.env))))
  app.get('/openapi/v3/*', async (c) => {
    const doc = openapiGroupVersion(await customResources(c.env), c.req.path.slice('/openapi/v3/'.length))
    return doc ? c.json(doc) : statusResponse(notFoundStatus())
  })

  app.post('/agent/v1/nodes/:name/credential', (c) => serveNodeJoin(c.req.raw, c.env, c.req.param('name')))
  app.get('/agent/v1/nodes/:name/tunnel', (c) => serveTunnel(c.req.raw, c.env, c.req.param('name')))
  app.get('/api/v1/namespaces/:namespace/pods/:name/log', (c) => servePodLogs(c.req.raw, c.env, c.req.param('namespace'), c.req.param('name')))
  app.on(['GET', 'POST'], '/api/v1/namespaces/:namespace/pods/:name/exec', (c) => servePodExec(c.req.raw, c.env, c.req.param('namespace'), c.req.param('name')))
  app.on(['GET', 'POST'], '/api/v1/namespaces/:namespace/pods/:name/attach', (c) => servePodExec(c.req.raw, c.env, c.req.param('namespace'), c.req.param('name'), true))
  app.on(['GET', 'POST'], '/api/v1/namespaces/:namespace/pods/:name/portforward', (c) => servePodPortForward(c.req.raw, c.env, c.req.param('namespace'), c.req.param('name')))
  for (const kind of ['pods', 'services']) {
    app.all(`/api/v1/namespaces/:namespace/${kind}/:name/proxy`, (c) => serveProxy(c.req.raw, c.env))
    app.all(`/api/v1/namespaces/:namespace/${kind}/:name/proxy/*`, (c) => serveProxy(c.req.raw, c.env))
  }
  app.all('/api/v1/componentstatuses', (c) => serveComponentStatuses(c.req.raw, c.env))
  app.all('/api/v1/componentstatuses/:name', (c) => serveComponentStatuses(c.req.raw, c.env, c.req.param('name')))
  app.all('/api/v1/*', async (c) => {
    await ensureBootstrap(c.env)
    const info = parseResourcePath('', 'v1', c.req.path.slice('/api/v1/'.length))
    if (!info) return statusResponse(notFoundStatus())
    return handleResource(c.req.raw, c.env, info)
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
    const { group, version } = c.req.param()
    const aggregated = await unservedAggregatedApi(c.env, group, version)
    if (aggregated) return aggregated
    const info = parseResourcePath(group, version, c.req.path.slice(`/apis/${group}/${version}/`.length))
    if (!info) return statusResponse(notFoundStatus())
    return handleResource(c.req.raw, c.env, info)
  })

  app.notFound(() => statusResponse(notFoundStatus()))
  app.onError((err) => {
    if (err instanceof ApiError) return statusResponse(err.status)
    console.error('internal error', err)
    return jsonBody(failure(500, 'InternalError', `Internal error occurred: ${err.message}`), 500)
  })
  return app
}
