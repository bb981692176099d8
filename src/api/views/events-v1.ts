import type { ApiBindings } from '../bindings'
import type { Status } from '../../apimachinery/types'
import { ApiError, badRequest, failure, invalid } from '../../apimachinery/status'
import {
  eventFieldToCore,
  eventPathToCore,
  eventToCore,
  eventToV1,
  eventsApiVersion,
  eventsGroup,
  validateEventV1Create,
} from '../../apis/events-v1'
import { patchTypeOf } from '../../apis/patching'
import { readBody } from '../http/body'
import { handleResource } from '../resources'
import { parsedOf } from '../http/request-info'
import {
  answerInView,
  checkViewTypeMeta,
  inViewVersion,
  refuseViewWebSocket,
  viewRequest,
  viewTargetUrl,
} from './view-request'

const prefix = `/apis/${eventsGroup}/v1/`

/**
 * events.k8s.io/v1 Events: the core/v1 Events of the same store, seen under the other group's
 * field names. Each request is put in core terms (path, field selectors, body or patch), served
 * by the core handler, and its answer (object, list or watch stream) is put back.
 */
export async function serveEventsV1(req: Request, env: ApiBindings): Promise<Response> {
  const url = new URL(req.url)
  const { info } = parsedOf(req)
  if (!info || info.resource !== 'events' || info.subresource !== undefined)
    throw new ApiError(
      failure(404, 'NotFound', 'the server could not find the requested resource', {}),
    )
  refuseViewWebSocket(req, 'events.k8s.io/v1 events')
  const coreUrl = viewTargetUrl(req, prefix, '/api/v1/')
  const selector = url.searchParams.get('fieldSelector')
  if (selector) coreUrl.searchParams.set('fieldSelector', coreFieldSelector(selector))

  let coreReq: Request
  if (req.method === 'POST' || req.method === 'PUT')
    coreReq = await viewRequest(
      req,
      coreUrl,
      req.method,
      JSON.stringify(await coreBody(req, info.name, req.method === 'POST')),
      'application/json',
    )
  else if (req.method === 'PATCH')
    coreReq = await viewRequest(req, coreUrl, req.method, await corePatch(req))
  else coreReq = await viewRequest(req, coreUrl, req.method)
  let res: Response
  try {
    res = await handleResource(coreReq, env, { ...info, group: '', version: 'v1' })
  } catch (e) {
    if (e instanceof ApiError) throw new ApiError(inEventsGroup(e.status))
    throw e
  }
  return answerInView(req, res, answerInV1)
}

/** An events.k8s.io/v1 field selector in core field names; an unknown field is a 400, as upstream. */
function coreFieldSelector(selector: string): string {
  return selector
    .split(',')
    .map((term) => {
      const m = /^\s*([^!=\s]+)\s*(==|!=|=)(.*)$/.exec(term)
      const field = m ? eventFieldToCore(m[1]!) : undefined
      if (!m || !field)
        throw new ApiError(badRequest(`field label not supported: ${m?.[1] ?? term}`))
      return `${field}${m[2]}${m[3]}`
    })
    .join(',')
}

async function coreBody(
  req: Request,
  name: string | undefined,
  create: boolean,
): Promise<Record<string, unknown>> {
  const ev = (await readBody(req)) as Record<string, unknown>
  checkViewTypeMeta(ev, eventsApiVersion, 'Event')
  if (create) {
    const causes = validateEventV1Create({
      ...ev,
      metadata: { ...(ev.metadata as object), namespace: parsedOf(req).info?.namespace ?? '' },
    })
    const meta = (ev.metadata ?? {}) as { name?: string; generateName?: string }
    if (causes.length)
      throw new ApiError(
        invalid(eventsGroup, 'Event', meta.name ?? meta.generateName ?? name ?? '', causes),
      )
  }
  return { ...eventToCore(ev), apiVersion: 'v1', kind: 'Event' }
}

/** A patch of the events.k8s.io/v1 view as the same patch of the core object. */
async function corePatch(req: Request): Promise<string> {
  const type = patchTypeOf(req.headers.get('Content-Type'))
  if (!type) return req.text()
  if (type === 'json') {
    const ops = (await readBody(req, 'any')) as { path?: string; from?: string }[]
    if (!Array.isArray(ops)) return JSON.stringify(ops)
    return JSON.stringify(
      ops.map((op) => ({
        ...op,
        ...(typeof op.path === 'string' ? { path: eventPathToCore(op.path) } : {}),
        ...(typeof op.from === 'string' ? { from: eventPathToCore(op.from) } : {}),
      })),
    )
  }
  const patch = (await readBody(req)) as Record<string, unknown>
  const core = eventToCore(patch)
  if (type === 'apply') core.apiVersion = 'v1'
  return JSON.stringify(core)
}

const answerInV1 = inViewVersion('Event', eventsApiVersion, eventToV1)

/** A Status from the core handler, naming the events.k8s.io resource as upstream would. */
function inEventsGroup(status: Status): Status {
  const details = status.details as { group?: string; kind?: string } | undefined
  if (details?.kind !== 'events' || details.group) return status
  return {
    ...status,
    message: status.message?.replace(/^events "/, `events.${eventsGroup} "`),
    details: { ...details, group: eventsGroup },
  }
}
