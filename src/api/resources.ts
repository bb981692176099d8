import type { ApiBindings } from './bindings'
import type { KubeObject } from '../apimachinery/types'
import { ApiError, badRequest, failure, methodNotAllowed, unwrap } from '../apimachinery/status'
import { apiVersionOf } from '../apis/registry'
import type { ResourceDef } from '../apis/resource-def'
import type { PatchSubresource, WriteSubresource } from '../apis/write-subresource'
import { subresourceOf } from '../apis/subresources'
import { admittedStore } from '../admission/webhooks/admitted-store'
import { patchTypeOf } from '../apis/patching'
import { withApplyOptions } from './http/apply-request'
import type { ApplyWriteOptions } from '../apis/store-options'
import { nodeWriterOf } from './authorization/node-authorizer'
import { storeFor } from '../store-client/stores'
import type { RequestInfo } from './http/request-info'
import { readBody } from './http/body'
import {
  checkWatchListOptions,
  deleteOptions,
  listOptions,
  queryFlag,
  writeOptions,
} from './http/query'
import { jsonBody, jsonText } from './http/respond'
import { tableOf, wantsTable } from './http/table-negotiation'
import { serveWatch } from './http/watch-http'
import { pagedListResponse } from './http/list-response'
import { listPages } from '../store-client/list-pages'
import { admitNamespaceLifecycle } from '../admission/namespace-lifecycle'
import { resolveResource } from '../store-client/custom-resources'
import { asRequestedVersion } from '../apis/crd/version-view'
import { bothGuards, type WriteGuard } from '../admission/guarded-write'
import type { AdmissionAttributes } from '../admission/attributes'
import { admitKindWrite } from '../admission/kind-writes'
import { requestUser } from './authentication/user'
import { admitNewObject } from '../admission/create'
import { applyCreate } from '../admission/apply-create'
import { kindApiOf } from './kinds'
import { admissionAttributesOf } from './http/admission-attributes'
import type { KindApi, SubresourceRoute } from './kinds/types'

// As kube-apiserver's generic 404: an empty `details`, which clients (kubectl debug) read.
const notServed = () =>
  new ApiError(failure(404, 'NotFound', 'the server could not find the requested resource', {}))
const notAllowed = () =>
  new ApiError(methodNotAllowed(`the server does not allow this method on the requested resource`))

/**
 * The generic handler for every served resource: all verbs, the subresources its definition lists
 * (status, scale, approval), and what its kind's API module adds (./kinds): the kind's own
 * subresources, and what its writes check and forget. A write passes its kind's admission steps
 * (../admission/kind-writes.ts) on its admission attributes, built once from the request.
 */
export async function handleResource(
  req: Request,
  env: ApiBindings,
  info: RequestInfo,
): Promise<Response> {
  const def = await resolveResource(env, info.group, info.version, info.resource)
  if (!def || (info.namespace !== undefined && !def.namespaced)) throw notServed()
  const api = kindApiOf(def)
  // A subresource with a handler of its own (pods/binding, serviceaccounts/token) is its handler's alone.
  const route =
    info.name && info.subresource !== undefined ? routeOf(def, api, info.subresource) : undefined
  if (route && 'serve' in route) return route.serve(req, env, def, info.namespace, info.name!)
  if (req.method === 'GET') return serveResource(req, env, def, info, route)
  const attributes = await admissionAttributesOf(req, info, def.namespaced)
  const admitted = attributes && admitKindWrite(env, def, attributes)
  const serve = (r: Request, guard?: WriteGuard) =>
    serveResource(r, env, def, info, route, bothGuards(admitted, guard), attributes)
  return api.write ? api.write(req, env, def, info, serve) : serve(req)
}

/** How the subresource is served: by the kind's own route, or generically when the definition lists it. */
function routeOf(def: ResourceDef, api: KindApi, sub: string): SubresourceRoute | undefined {
  const own = api.subresources
  if (own && Object.hasOwn(own, sub)) return own[sub]
  return def.subresources.includes(sub as never)
    ? { methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], otherwise: 'MethodNotAllowed' }
    : undefined
}

/**
 * `route`: how the subresource addressed, if any, is served (by this handler, for some methods);
 * `attributes`: a write's admission attributes.
 */
async function serveResource(
  req: Request,
  env: ApiBindings,
  def: ResourceDef,
  info: RequestInfo,
  route: SubresourceRoute | undefined,
  guard?: WriteGuard,
  attributes?: AdmissionAttributes,
): Promise<Response> {
  const sub = info.subresource
  if (sub !== undefined) {
    if (!route || 'serve' in route) throw notServed()
    if (!route.methods.includes(req.method))
      throw route.otherwise === 'NotFound' ? notServed() : notAllowed()
  }
  const subresource = sub as WriteSubresource | undefined
  // A subresource of another kind (a Scale): read, written and answered as that kind.
  const view = sub === undefined ? undefined : subresourceOf(def, sub)?.view
  const q = new URL(req.url).searchParams
  const namespace = def.namespaced ? info.namespace : undefined
  const store = storeFor(env, def)
  const admitted = admittedStore(env, def, requestUser(req), guard)
  const target = { def, namespace, name: info.name ?? '' }

  switch (req.method) {
    case 'GET': {
      if (!info.name) {
        const watch = queryFlag(q, 'watch')
        checkWatchListOptions(q, watch)
        if (watch) return serveWatch(req, env, def, namespace, q)
        const list = listOptions(q, namespace)
        return pagedListResponse(def, listPages(env, def, list), req, q, !!list.limit)
      }
      const text = asRequestedVersion(def, unwrap(await store.get(target)))
      if (view) return jsonBody(view(JSON.parse(text) as KubeObject))
      if (wantsTable(req.headers.get('Accept')))
        return jsonBody(tableOf(def, [JSON.parse(text) as KubeObject], q))
      return jsonText(text)
    }
    case 'POST': {
      if (info.name) throw notAllowed()
      if (def.custom?.terminating)
        throw new ApiError(
          methodNotAllowed('create not allowed while custom resource definition is terminating'),
        )
      const body = checkTypeMeta(def, (await readBody(req)) as KubeObject)
      matchNamespace(body, namespace)
      if (attributes) await admitNamespaceLifecycle(env, attributes)
      const opts = requestWriteOptions(req, q)
      await admitNewObject(env, target, body, opts)
      const res = await admitted.create(target, body, opts)
      return jsonText(
        asRequestedVersion(def, unwrap(res).object),
        201,
        res.ok ? res.warnings : undefined,
      )
    }
    case 'PUT': {
      if (!info.name) throw notAllowed()
      const raw = (await readBody(req)) as KubeObject
      const body = view ? raw : checkTypeMeta(def, raw)
      if (!view) matchNamespace(body, namespace)
      const res = await admitted.update(target, body, subresource, requestWriteOptions(req, q))
      return jsonText(
        view ? unwrap(res).object : asRequestedVersion(def, unwrap(res).object),
        200,
        res.ok ? res.warnings : undefined,
      )
    }
    case 'PATCH': {
      if (!info.name) throw notAllowed()
      const type = patchTypeOf(req.headers.get('Content-Type'))
      if (!type) {
        throw new ApiError(
          failure(
            415,
            'UnsupportedMediaType',
            `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json`,
          ),
        )
      }
      const patch = await readBody(req, type === 'json' ? 'any' : 'object')
      const opts = requestWriteOptions(req, q)
      // A server-side apply that creates the object passes the same admission as a POST.
      const created =
        subresource === undefined
          ? await applyCreate(env, target, type, patch, opts, (obj, o) =>
              admitted.create(target, obj, o),
            )
          : undefined
      const res =
        created ??
        (await admitted.patch(
          target,
          type,
          patch,
          subresource as PatchSubresource | undefined,
          opts,
        ))
      const written = unwrap(res)
      return jsonText(
        view ? written.object : asRequestedVersion(def, written.object),
        written.created ? 201 : 200,
        res.ok ? res.warnings : undefined,
      )
    }
    case 'DELETE': {
      const hasBody =
        Number(req.headers.get('Content-Length') ?? 0) > 0 || req.headers.has('Transfer-Encoding')
      const body = hasBody ? ((await readBody(req)) as Record<string, unknown>) : undefined
      const opts = deleteOptions(q, body)
      if (!info.name) {
        if (def.verbs && !def.verbs.includes('deletecollection')) throw notAllowed()
        return pagedListResponse(
          def,
          admitted.deletePages(namespace, listOptions(q, namespace), opts),
          req,
          q,
          false,
        )
      }
      if (subresource) throw notAllowed()
      const res = unwrap(await admitted.delete(target, opts))
      return jsonText(asRequestedVersion(def, res.object), res.pending ? 202 : 200)
    }
    default:
      throw notAllowed()
  }
}

/** The write options of a request: the query's, its field manager, and what NodeRestriction checks in the store. */
function requestWriteOptions(req: Request, q: URLSearchParams): ApplyWriteOptions {
  const opts = withApplyOptions(writeOptions(q), req, q)
  const nodeWriter = nodeWriterOf(req)
  const requester = requestUser(req)
  return nodeWriter ? { ...opts, nodeWriter, requester } : { ...opts, requester }
}

/** The body's apiVersion and kind, when given, must name the resource of the URL. */
function checkTypeMeta(def: ResourceDef, body: KubeObject): KubeObject {
  const want = apiVersionOf(def)
  if (body.apiVersion !== undefined && body.apiVersion !== want) {
    throw new ApiError(
      badRequest(
        `the API version in the data (${body.apiVersion}) does not match the expected API version (${want})`,
      ),
    )
  }
  if (body.kind !== undefined && body.kind !== def.kind) {
    throw new ApiError(
      badRequest(
        `the kind in the data (${body.kind}) does not match the expected kind (${def.kind})`,
      ),
    )
  }
  if (!body.metadata || typeof body.metadata !== 'object') body.metadata = {}
  return body
}

function matchNamespace(body: KubeObject, namespace: string | undefined): void {
  const ns = body.metadata.namespace
  if (namespace && ns && ns !== namespace) {
    throw new ApiError(
      badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      ),
    )
  }
}
