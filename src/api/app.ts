import { Hono } from 'hono'
import type { Env } from '../env'
import { ApiError, failure } from '../apimachinery/status'
import { bearerAuth } from './auth'
import { aggregatedDiscovery, aggregatedDiscoveryType, apiGroup, apiGroupList, apiVersions, resourceList, wantsAggregated } from './discovery'
import { openapiGroupVersion, openapiIndex } from './openapi'
import { servePodExec } from './pod-exec'
import { servePodLogs } from './pod-logs'
import { parseResourcePath } from './request-info'
import { handleResource } from './resources'
import { ensureBootstrap } from './namespaces'
import { jsonBody, statusResponse } from './respond'
import { serveTunnel } from './tunnel'
import { versionInfo } from './version'

const notFoundStatus = () => failure(404, 'NotFound', 'the server could not find the requested resource')

/** The API server: discovery, OpenAPI, health, and every resource route. */
export function buildApp() {
  const app = new Hono<{ Bindings: Env }>()

  // First, so the public paths too refuse a token that fails (bearerAuth lets anonymous requests through to them).
  app.use('*', bearerAuth())
  app.get('/version', (c) => c.json(versionInfo))
  for (const p of ['/healthz', '/readyz', '/livez']) app.get(p, (c) => c.text('ok'))

  app.get('/api', (c) => {
    if (wantsAggregated(c.req.header('Accept') ?? null)) return new Response(JSON.stringify(aggregatedDiscovery(true)), { headers: { 'Content-Type': aggregatedDiscoveryType } })
    return c.json(apiVersions(new URL(c.req.url).host))
  })
  app.get('/apis', (c) => {
    if (wantsAggregated(c.req.header('Accept') ?? null)) return new Response(JSON.stringify(aggregatedDiscovery(false)), { headers: { 'Content-Type': aggregatedDiscoveryType } })
    return c.json(apiGroupList())
  })
  app.get('/api/v1', (c) => c.json(resourceList('', 'v1')))
  app.get('/apis/:group', (c) => {
    const doc = apiGroup(c.req.param('group'))
    return doc ? c.json(doc) : statusResponse(notFoundStatus())
  })
  app.get('/apis/:group/:version', (c) => {
    const doc = resourceList(c.req.param('group'), c.req.param('version'))
    return doc ? c.json(doc) : statusResponse(notFoundStatus())
  })
  app.get('/openapi/v3', (c) => c.json(openapiIndex()))
  app.get('/openapi/v3/*', (c) => {
    const doc = openapiGroupVersion(c.req.path.slice('/openapi/v3/'.length))
    return doc ? c.json(doc) : statusResponse(notFoundStatus())
  })

  app.get('/agent/v1/nodes/:name/tunnel', (c) => serveTunnel(c.req.raw, c.env, c.req.param('name')))
  app.get('/api/v1/namespaces/:namespace/pods/:name/log', (c) => servePodLogs(c.req.raw, c.env, c.req.param('namespace'), c.req.param('name')))
  app.on(['GET', 'POST'], '/api/v1/namespaces/:namespace/pods/:name/exec', (c) => servePodExec(c.req.raw, c.env, c.req.param('namespace'), c.req.param('name')))
  app.all('/api/v1/*', async (c) => {
    await ensureBootstrap(c.env)
    const info = parseResourcePath('', 'v1', c.req.path.slice('/api/v1/'.length))
    if (!info) return statusResponse(notFoundStatus())
    return handleResource(c.req.raw, c.env, info)
  })
  app.all('/apis/:group/:version/*', async (c) => {
    await ensureBootstrap(c.env)
    const { group, version } = c.req.param()
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
