import type { Env } from '../env'
import { defaultIngressClass } from '../edge/ingress-class'
import { isIngressKind, serveIngressWrite } from '../edge/ingress-writes'
import { defaultStorageClass } from '../admission/storage-class'
import type { KubeObject } from '../apimachinery/types'
import { ApiError, badRequest, failure, invalid, methodNotAllowed, success, unwrap } from '../apimachinery/status'
import { admissionGroup, apiVersionOf, isCrd, rbacGroup, type ResourceDef } from '../apis/registry'
import { admittedStore } from '../admission/webhooks/admitted-store'
import { forgetWebhookConfigurations } from '../admission/webhooks/configurations'
import { forgetAdmissionPolicies } from '../admission/policies/configurations'
import { toScale } from '../apis/scale'
import { patchTypeOf } from '../apis/patching'
import { withApplyOptions } from './apply-request'
import type { ApplyWriteOptions } from '../apis/store-options'
import { nodeWriterOf } from './node-admission'
import { storeFor } from '../store-client/stores'
import type { RequestInfo } from './request-info'
import { readBody } from './body'
import { checkWatchListOptions, deleteOptions, listOptions, queryFlag, writeOptions } from './query'
import { jsonBody, jsonText } from './respond'
import { tableOf, wantsTable } from './table-negotiation'
import { serveWatch } from './watch-http'
import { pagedListResponse } from './list-response'
import { listPages } from '../store-client/list-pages'
import { ensureNamespaceWritable } from './namespaces'
import { forgetCustomResources, resolveResource } from '../store-client/custom-resources'
import { asRequestedVersion } from '../apis/crd/version-view'
import { escalationGuard } from './rbac-write'
import type { WriteGuard } from '../admission/guarded-write'
import { invalidateRbacPolicy } from './rbac-snapshot'
import { forgetServiceAccounts } from './service-account-cache'
import { requestUser } from './user'
import { isSchedulingClass, serveClassWrite } from './priority-class-writes'
import { admitPodCreate } from '../admission/pod-admission'
import { admitCreate } from '../admission/create'
import { admitPodBinding } from '../admission/pod-security/process-node'
import { applyCreate } from '../admission/apply-create'
import { servePodEviction } from './pod-eviction'
import { isCsr } from '../apis/certificates/csr-object'
import { serveCsrWrite } from './csr-writes'
import { isAdmissionPolicyKind, paramsGuard } from './admission-policy-writes'
import type { WriteSubresource } from '../apis/subresources'

// As kube-apiserver's generic 404: an empty `details`, which clients (kubectl debug) read.
const notServed = () => new ApiError(failure(404, 'NotFound', 'the server could not find the requested resource', {}))

/** The generic handler for every served resource: all verbs, the status and scale subresources. */
export async function handleResource(req: Request, env: Env, info: RequestInfo): Promise<Response> {
  const def = await resolveResource(env, info.group, info.version, info.resource)
  if (!def || (info.namespace !== undefined && !def.namespaced)) throw notServed()
  if (def.group === rbacGroup && req.method !== 'GET') return serveRbacWrite(req, env, def, info)
  if (isCsr(def) && req.method !== 'GET') return serveCsrWrite(req, env, info, (r, guard) => serveResource(r, env, def, info, guard))
  if (def.group === '' && def.plural === 'serviceaccounts' && req.method !== 'GET') {
    try {
      return await serveResource(req, env, def, info)
    } finally {
      forgetServiceAccounts()
    }
  }
  if (isSchedulingClass(def) && req.method !== 'GET') return serveClassWrite(req, env, def, info, serveResource)
  if (isIngressKind(def) && req.method !== 'GET') return serveIngressWrite(req, env, def, info.subresource, (r, guard) => serveResource(r, env, def, info, guard))
  if (def.group === admissionGroup && req.method !== 'GET') {
    try {
      return await serveResource(req, env, def, info, isAdmissionPolicyKind(def) ? paramsGuard(env, requestUser(req), def) : undefined)
    } finally {
      forgetWebhookConfigurations()
      forgetAdmissionPolicies()
    }
  }
  if (!isCrd(def) || req.method === 'GET') return serveResource(req, env, def, info)
  try {
    return await serveResource(req, env, def, info)
  } finally {
    forgetCustomResources()
  }
}

/**
 * A write to an RBAC kind: every create, update and patch stores only an object that passes the
 * escalation check, checked as it is stored (./rbac-write); any write makes this isolate's policy
 * snapshot re-check the stores on the next request.
 */
async function serveRbacWrite(req: Request, env: Env, def: ResourceDef, info: RequestInfo): Promise<Response> {
  try {
    return await serveResource(req, env, def, info, escalationGuard(env, requestUser(req), def))
  } finally {
    invalidateRbacPolicy()
  }
}

async function serveResource(req: Request, env: Env, def: ResourceDef, info: RequestInfo, guard?: WriteGuard): Promise<Response> {
  const sub = info.subresource
  if (def.group === '' && def.plural === 'pods' && info.name && (sub === 'binding' || sub === 'eviction')) return podAction(req, env, def, info.namespace, info.name, sub)
  const finalize = def.group === '' && def.plural === 'namespaces' && sub === 'finalize' && req.method === 'PUT'
  // pods/ephemeralcontainers reads and writes the Pod; a write changes only spec.ephemeralContainers.
  const ephemeral = def.group === '' && def.plural === 'pods' && sub === 'ephemeralcontainers' && !!info.name
  if (ephemeral && !['GET', 'PUT', 'PATCH'].includes(req.method)) throw new ApiError(methodNotAllowed(`the server does not allow this method on the requested resource`))
  if (sub !== undefined && !finalize && !ephemeral && (!info.name || !def.subresources.includes(sub as never))) throw notServed()
  const subresource = sub as WriteSubresource | undefined
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
      if (subresource === 'scale') return jsonBody(toScale(def, JSON.parse(text) as KubeObject))
      if (wantsTable(req.headers.get('Accept'))) return jsonBody(tableOf(def, [JSON.parse(text) as KubeObject], q))
      return jsonText(text)
    }
    case 'POST': {
      if (info.name) throw new ApiError(methodNotAllowed(`the server does not allow this method on the requested resource`))
      if (def.custom?.terminating) throw new ApiError(methodNotAllowed('create not allowed while custom resource definition is terminating'))
      const body = checkTypeMeta(def, (await readBody(req)) as KubeObject)
      matchNamespace(body, namespace)
      if (namespace) await ensureNamespaceWritable(env, namespace)
      if (def.group === 'networking.k8s.io' && def.plural === 'ingresses') await defaultIngressClass(env, body)
      if (def.group === '' && def.plural === 'pods') await admitPodCreate(env, body)
      if (def.group === '' && def.plural === 'persistentvolumeclaims') await defaultStorageClass(env, body)
      const opts = requestWriteOptions(req, q)
      if (namespace) await admitCreate(env, target, body, opts)
      const res = await admitted.create(target, body, opts)
      return jsonText(asRequestedVersion(def, unwrap(res).object), 201, res.ok ? res.warnings : undefined)
    }
    case 'PUT': {
      if (!info.name) throw new ApiError(methodNotAllowed(`the server does not allow this method on the requested resource`))
      const raw = (await readBody(req)) as KubeObject
      const body = subresource === 'scale' ? raw : checkTypeMeta(def, raw)
      if (subresource !== 'scale') matchNamespace(body, namespace)
      const res = await admitted.update(target, body, subresource, requestWriteOptions(req, q))
      return jsonText(subresource === 'scale' ? unwrap(res).object : asRequestedVersion(def, unwrap(res).object), 200, res.ok ? res.warnings : undefined)
    }
    case 'PATCH': {
      if (!info.name) throw new ApiError(methodNotAllowed(`the server does not allow this method on the requested resource`))
      const type = patchTypeOf(req.headers.get('Content-Type'))
      if (!type) {
        throw new ApiError(
          failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json`),
        )
      }
      const patch = await readBody(req, type === 'json' ? 'any' : 'object')
      if (subresource === 'finalize') throw notServed()
      // A server-side apply that creates a pod passes the same admission as a POST.
      if (def.group === '' && def.plural === 'pods' && type === 'apply' && !subresource && !(await store.get(target)).ok) await admitPodCreate(env, patch as KubeObject)
      const opts = requestWriteOptions(req, q)
      const created = subresource === undefined ? await applyCreate(env, target, type, patch, opts, (obj, o) => admitted.create(target, obj, o)) : undefined
      const res = created ?? (await admitted.patch(target, type, patch, subresource, opts))
      const written = unwrap(res)
      return jsonText(subresource === 'scale' ? written.object : asRequestedVersion(def, written.object), written.created ? 201 : 200, res.ok ? res.warnings : undefined)
    }
    case 'DELETE': {
      const hasBody = Number(req.headers.get('Content-Length') ?? 0) > 0 || req.headers.has('Transfer-Encoding')
      const body = hasBody ? ((await readBody(req)) as Record<string, unknown>) : undefined
      const opts = deleteOptions(q, body)
      if (!info.name) {
        if (def.verbs && !def.verbs.includes('deletecollection')) throw new ApiError(methodNotAllowed('the server does not allow this method on the requested resource'))
        return pagedListResponse(def, admitted.deletePages(namespace, listOptions(q, namespace), opts), req, q, false)
      }
      if (subresource) throw new ApiError(methodNotAllowed(`the server does not allow this method on the requested resource`))
      const res = unwrap(await admitted.delete(target, opts))
      return jsonText(asRequestedVersion(def, res.object), res.pending ? 202 : 200)
    }
    default:
      throw new ApiError(methodNotAllowed(`the server does not allow this method on the requested resource`))
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
    throw new ApiError(badRequest(`the API version in the data (${body.apiVersion}) does not match the expected API version (${want})`))
  }
  if (body.kind !== undefined && body.kind !== def.kind) {
    throw new ApiError(badRequest(`the kind in the data (${body.kind}) does not match the expected kind (${def.kind})`))
  }
  if (!body.metadata || typeof body.metadata !== 'object') body.metadata = {}
  return body
}

function matchNamespace(body: KubeObject, namespace: string | undefined): void {
  const ns = body.metadata.namespace
  if (namespace && ns && ns !== namespace) {
    throw new ApiError(badRequest('the namespace of the provided object does not match the namespace sent on the request'))
  }
}


/** POST pods/{name}/binding (the scheduler's write) and pods/{name}/eviction (kubectl drain). */
async function podAction(req: Request, env: Env, def: ResourceDef, namespace: string | undefined, name: string, sub: 'binding' | 'eviction'): Promise<Response> {
  if (req.method !== 'POST') throw new ApiError(methodNotAllowed('the server does not allow this method on the requested resource'))
  const q = new URL(req.url).searchParams
  const body = (await readBody(req)) as Record<string, unknown>
  const store = storeFor(env, def)
  const target = { def, namespace, name }
  if (sub === 'binding') {
    const node = (body.target as { name?: unknown } | undefined)?.name
    if (typeof node !== 'string' || !node) {
      throw new ApiError(invalid('', 'Binding', name, [{ field: 'target.name', reason: 'FieldValueRequired', message: 'Required value' }]))
    }
    const uid = (body.metadata as { uid?: string } | undefined)?.uid
    await admitPodBinding(env, target, node)
    unwrap(await store.bind(target, node, uid, writeOptions(q)))
    return jsonBody(success(undefined, 201), 201)
  }
  return servePodEviction(req, env, def, namespace ?? '', name, body)
}
