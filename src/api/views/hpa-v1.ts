import type { ApiBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { ApiError, badRequest, failure, unwrap } from '../../apimachinery/status'
import { asRecord } from '../../apimachinery/json-value'
import { hpaFromV1, hpaGroup, hpaToV1, hpaV1ApiVersion } from '../../apis/autoscaling/v1-view'
import { applyPatch, patchTypeOf } from '../../apis/patching'
import type { PatchType } from '../../apis/store-options'
import { removePath } from '../../apis/write-checks'
import { builtinResources, findResource } from '../../apis/registry'
import { checkDecode } from '../../apis/schema/typed-decode'
import { schemas } from '../../apis/schema'
import { strictDecodingMessage } from '../../apis/schema/unknown-fields'
import { storeFor } from '../../store-client/stores'
import { readBody } from '../http/body'
import { appendWarnings } from '../http/respond'
import { handleResource } from '../resources'
import { parsedOf, type RequestInfo } from '../http/request-info'
import {
  answerInView,
  checkViewTypeMeta,
  inViewVersion,
  refuseViewWebSocket,
  viewRequest,
  viewTargetUrl,
} from './view-request'

const prefix = `/apis/${hpaGroup}/v1/`
const v1Struct = 'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler'
const v2Def = findResource(hpaGroup, 'v2', 'horizontalpodautoscalers')!
const v1Def = builtinResources.find(
  (d) => d.group === hpaGroup && d.version === 'v1' && d.kind === 'HorizontalPodAutoscaler',
)!

/** How often a patch is re-applied to a fresh read when the write conflicts (upstream's maxRetryWhenPatchConflicts). */
const patchAttempts = 5

/**
 * autoscaling/v1 HorizontalPodAutoscalers: the stored autoscaling/v2 objects seen through v1's
 * fields. Each request is put in v2 terms (path, body; a patch is applied to the v1 view of the
 * stored object and written back as an update), served by the generic handler, and its answer
 * (object, list or watch stream) is put back in v1.
 */
export async function serveHpaV1(req: Request, env: ApiBindings): Promise<Response> {
  const url = new URL(req.url)
  const { info } = parsedOf(req)
  if (
    !info ||
    info.resource !== 'horizontalpodautoscalers' ||
    (info.subresource !== undefined && info.subresource !== 'status')
  ) {
    throw new ApiError(
      failure(404, 'NotFound', 'the server could not find the requested resource', {}),
    )
  }
  refuseViewWebSocket(req, 'autoscaling/v1 horizontalpodautoscalers')
  const v2Url = viewTargetUrl(req, prefix, `/apis/${hpaGroup}/v2/`)
  const serve = async (method: string, v1?: ReturnType<typeof checkedV1>, stored?: KubeObject) => {
    const inner = await viewRequest(
      req,
      v2Url,
      method,
      v1 && JSON.stringify(hpaFromV1(v1.obj, stored)),
      'application/json',
    )
    return withWarnings(
      await handleResource(inner, env, { ...info, version: 'v2' }),
      v1?.warnings ?? [],
    )
  }
  let res: Response
  if (req.method === 'POST' || req.method === 'PUT') {
    const stored =
      req.method === 'POST' ? undefined : await storedObject(env, info.namespace, info.name)
    res = await serve(req.method, checkedV1(await readBody(req), url), stored)
  } else if (req.method === 'PATCH') {
    res = await servePatch(req, env, info, (v1, stored) => serve('PUT', v1, stored))
  } else {
    res = await serve(req.method)
  }
  return answerInView(req, res, answerInV1)
}

/**
 * A patch, as kube-apiserver's patch handler: applied to the v1 view of the stored object and
 * written with its resourceVersion; when the object changed in between (a conflict), read again
 * and re-applied, a bounded number of times, unless the patch itself names the resourceVersion.
 */
async function servePatch(
  req: Request,
  env: ApiBindings,
  info: RequestInfo,
  write: (v1: ReturnType<typeof checkedV1>, stored: KubeObject) => Promise<Response>,
): Promise<Response> {
  const type = patchTypeOf(req.headers.get('Content-Type'))
  if (!type)
    throw new ApiError(
      failure(
        415,
        'UnsupportedMediaType',
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
      ),
    )
  if (type === 'apply')
    throw new ApiError(
      failure(
        415,
        'UnsupportedMediaType',
        'server-side apply of autoscaling/v1 horizontalpodautoscalers is not served; apply the autoscaling/v2 form',
      ),
    )
  const patch = await readBody(req, 'any')
  const retry = !patchSetsResourceVersion(type, patch)
  for (let attempt = 1; ; attempt++) {
    const stored = await storedObject(env, info.namespace, info.name)
    const patched = unwrap(applyPatch(v1Def, type, hpaToV1(stored), patch))
    try {
      const res = await write(checkedV1(patched, new URL(req.url)), stored)
      if (res.status !== 409 || !retry || attempt === patchAttempts) return res
    } catch (e) {
      if (
        !(e instanceof ApiError) ||
        e.status.code !== 409 ||
        e.status.reason !== 'Conflict' ||
        !retry ||
        attempt === patchAttempts
      )
        throw e
    }
  }
}

/** Whether a patch sets metadata.resourceVersion: then a conflict is the client's to see. */
function patchSetsResourceVersion(type: PatchType, patch: unknown): boolean {
  if (type === 'json')
    return (
      Array.isArray(patch) &&
      patch.some((op) =>
        ['/metadata', '/metadata/resourceVersion'].includes(String(asRecord(op).path)),
      )
    )
  return asRecord(asRecord(patch).metadata).resourceVersion !== undefined
}

async function storedObject(
  env: ApiBindings,
  namespace: string | undefined,
  name: string | undefined,
): Promise<KubeObject> {
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
  checkViewTypeMeta(obj, hpaV1ApiVersion, 'HorizontalPodAutoscaler')
  const decoded = checkDecode(obj, v1Struct, schemas)
  const cannot = (why: string) =>
    new ApiError(
      badRequest(
        `HorizontalPodAutoscaler in version "v1" cannot be handled as a HorizontalPodAutoscaler: ${why}`,
      ),
    )
  if (decoded.typeError !== undefined) throw cannot(decoded.typeError)
  const mode = url.searchParams.get('fieldValidation')
  if (decoded.unknown.length && mode === 'Strict')
    throw cannot(strictDecodingMessage(decoded.unknown))
  // Dropped here, warned of once: the v2 object written must not carry them to be warned of again.
  for (const path of decoded.unknown) removePath(obj, path)
  return {
    obj,
    warnings: mode === 'Ignore' ? [] : decoded.unknown.map((p) => `unknown field "${p}"`),
  }
}

const answerInV1 = inViewVersion('HorizontalPodAutoscaler', hpaV1ApiVersion, hpaToV1)
