import type { Env } from '../env'
import type { KubeObject } from '../apimachinery/types'
import { ApiError, badRequest, failure, unwrap } from '../apimachinery/status'
import { asRecord } from '../apimachinery/json-value'
import { hpaFromV1, hpaGroup, hpaToV1, hpaV1ApiVersion } from '../apis/autoscaling/v1-view'
import { applyPatch, patchTypeOf } from '../apis/patching'
import { builtinResources, findResource } from '../apis/registry'
import { checkDecode } from '../apis/schema/typed-decode'
import { schemas } from '../apis/schema'
import { strictDecodingMessage } from '../apis/schema/unknown-fields'
import { storeFor } from '../store-client/stores'
import { readBody } from './body'
import { appendWarnings } from './respond'
import { handleResource } from './resources'
import { parseResourcePath } from './request-info'
import { rewriteWatchObjects } from './watch-rewrite'

const prefix = `/apis/${hpaGroup}/v1/`
const v1Struct = 'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler'
const v2Def = findResource(hpaGroup, 'v2', 'horizontalpodautoscalers')!
const v1Def = builtinResources.find((d) => d.group === hpaGroup && d.version === 'v1' && d.kind === 'HorizontalPodAutoscaler')!

/**
 * autoscaling/v1 HorizontalPodAutoscalers: the stored autoscaling/v2 objects seen through v1's
 * fields. Each request is put in v2 terms (path, body; a patch is applied to the v1 view of the
 * stored object and written back as an update), served by the generic handler, and its answer
 * (object, list or watch stream) is put back in v1.
 */
export async function serveHpaV1(req: Request, env: Env): Promise<Response> {
  const url = new URL(req.url)
  const info = parseResourcePath(hpaGroup, 'v1', url.pathname.slice(prefix.length))
  if (!info || info.resource !== 'horizontalpodautoscalers' || (info.subresource !== undefined && info.subresource !== 'status')) {
    throw new ApiError(failure(404, 'NotFound', 'the server could not find the requested resource', {}))
  }
  if (req.headers.get('Upgrade')?.toLowerCase() === 'websocket') throw new ApiError(badRequest('watching autoscaling/v1 horizontalpodautoscalers over a WebSocket is not served; use an HTTP watch'))
  const v2Url = new URL(url)
  v2Url.pathname = `/apis/${hpaGroup}/v2/${url.pathname.slice(prefix.length)}`
  const headers = new Headers(req.headers)
  let method = req.method
  let body: string | undefined
  let warnings: string[] = []
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    const stored = method === 'POST' ? undefined : await storedObject(env, info.namespace, info.name)
    const v1 = method === 'PATCH' ? await patchedView(req, stored!, await readBody(req, 'any')) : checkedV1(await readBody(req), url)
    warnings = v1.warnings
    body = JSON.stringify(hpaFromV1(v1.obj, stored))
    if (method === 'PATCH') method = 'PUT'
  } else if (method === 'DELETE' && req.body) {
    body = (await req.text()) || undefined
  }
  if (body !== undefined) {
    headers.delete('Transfer-Encoding')
    headers.set('Content-Length', String(new TextEncoder().encode(body).byteLength))
    headers.set('Content-Type', 'application/json')
  }
  const res = withWarnings(await handleResource(new Request(v2Url, { method, headers, body }), env, { ...info, version: 'v2' }), warnings)
  if (method === 'GET' && ['true', '1'].includes(url.searchParams.get('watch') ?? '') && res.body) return new Response(res.body.pipeThrough(rewriteWatchObjects(answerInV1)), res)
  if (!(res.headers.get('Content-Type') ?? '').startsWith('application/json')) return res
  return new Response(JSON.stringify(answerInV1(JSON.parse(await res.text()))), { status: res.status, headers: res.headers })
}

async function storedObject(env: Env, namespace: string | undefined, name: string | undefined): Promise<KubeObject> {
  const text = unwrap(await storeFor(env, v2Def).get({ def: v2Def, namespace, name: name ?? '' }))
  return JSON.parse(text) as KubeObject
}

/** The answer with the decoding's warnings added, when the write was not refused. */
function withWarnings(res: Response, warnings: string[]): Response {
  if (!warnings.length || res.status >= 400) return res
  const headers = new Headers(res.headers)
  appendWarnings(headers, warnings)
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers })
}

/**
 * A v1 body as kube-apiserver decodes it: the right type and kind, values of the right types,
 * unknown fields per fieldValidation (Strict refuses them; Warn, the default, drops them with a
 * warning each; Ignore drops them).
 */
function checkedV1(raw: unknown, url: URL): { obj: Record<string, unknown>; warnings: string[] } {
  const obj = asRecord(raw)
  if (obj.apiVersion !== undefined && obj.apiVersion !== hpaV1ApiVersion) throw new ApiError(badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${hpaV1ApiVersion})`))
  if (obj.kind !== undefined && obj.kind !== 'HorizontalPodAutoscaler') throw new ApiError(badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (HorizontalPodAutoscaler)`))
  const decoded = checkDecode(obj, v1Struct, schemas)
  const cannot = (why: string) => new ApiError(badRequest(`HorizontalPodAutoscaler in version "v1" cannot be handled as a HorizontalPodAutoscaler: ${why}`))
  if (decoded.typeError !== undefined) throw cannot(decoded.typeError)
  const mode = url.searchParams.get('fieldValidation')
  if (decoded.unknown.length && mode === 'Strict') throw cannot(strictDecodingMessage(decoded.unknown))
  return { obj, warnings: mode === 'Ignore' ? [] : decoded.unknown.map((p) => `unknown field "${p}"`) }
}

/** The v1 view of the stored object with a JSON, merge or strategic merge patch applied. */
async function patchedView(req: Request, stored: KubeObject, patch: unknown): Promise<ReturnType<typeof checkedV1>> {
  const type = patchTypeOf(req.headers.get('Content-Type'))
  if (!type) throw new ApiError(failure(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json'))
  if (type === 'apply') throw new ApiError(failure(415, 'UnsupportedMediaType', 'server-side apply of autoscaling/v1 horizontalpodautoscalers is not served; apply the autoscaling/v2 form'))
  const view = hpaToV1(stored)
  // The view carries the stored resourceVersion: the update fails with a conflict if the object changed since.
  const patched = unwrap(applyPatch(v1Def, type, view, patch))
  return checkedV1(patched, new URL(req.url))
}

function answerInV1(doc: Record<string, unknown>): unknown {
  if (doc.kind === 'HorizontalPodAutoscaler') return hpaToV1(doc as KubeObject)
  if (doc.kind === 'HorizontalPodAutoscalerList' && Array.isArray(doc.items)) return { ...doc, apiVersion: hpaV1ApiVersion, items: (doc.items as KubeObject[]).map(hpaToV1) }
  // A Table's rows carry the whole object when asked (includeObject=Object).
  if (doc.kind === 'Table' && Array.isArray(doc.rows)) return { ...doc, rows: (doc.rows as { object?: Record<string, unknown> }[]).map((r) => (r.object?.kind === 'HorizontalPodAutoscaler' ? { ...r, object: answerInV1(r.object) } : r)) }
  return doc
}
