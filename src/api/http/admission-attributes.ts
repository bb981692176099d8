import type { KubeObject } from '../../apimachinery/types'
import { isJsonObject } from '../../apimachinery/json-value'
import { patchTypeOf } from '../../apis/patching'
import type { AdmissionAttributes } from '../../admission/attributes'
import type { Operation } from '../../admission/webhooks/match'
import { requestUser } from '../authentication/user'
import { readBody } from './body'
import type { RequestInfo } from './request-info'

const operations: Readonly<Record<string, Operation>> = {
  POST: 'CREATE',
  PUT: 'UPDATE',
  PATCH: 'UPDATE',
  DELETE: 'DELETE',
}

const built = new WeakMap<Request, Promise<AdmissionAttributes | undefined>>()

/**
 * The admission attributes of a write to a resource (../../admission/attributes.ts), built once
 * per request from its one reading (`info`, see request-info.ts) and the user it authenticated
 * as. The object a create or update sends, the patch a patch sends and a delete's options come
 * from the body's one decoding; a body that does not decode is left out, for the handler to
 * refuse. Undefined for a read.
 */
export function admissionAttributesOf(
  req: Request,
  info: RequestInfo,
  namespaced: boolean,
): Promise<AdmissionAttributes | undefined> {
  let attributes = built.get(req)
  if (!attributes) {
    attributes = attributesOf(req, info, namespaced)
    built.set(req, attributes)
  }
  return attributes
}

async function attributesOf(
  req: Request,
  info: RequestInfo,
  namespaced: boolean,
): Promise<AdmissionAttributes | undefined> {
  const method = req.method.toUpperCase()
  const operation = operations[method]
  if (!operation) return undefined
  const attrs: AdmissionAttributes = {
    user: requestUser(req),
    operation,
    group: info.group,
    version: info.version,
    resource: info.resource,
    subresource: info.subresource ?? '',
    namespaced,
    namespace: namespaced ? (info.namespace ?? '') : '',
    name: info.name ?? '',
    dryRun: new URL(req.url).searchParams.has('dryRun'),
  }
  if (method === 'PATCH') {
    attrs.patch = {
      type: patchTypeOf(req.headers.get('Content-Type')),
      body: await decoded(req, 'any'),
    }
  } else if (operation === 'DELETE') {
    const options = hasBody(req) ? await decoded(req, 'object') : undefined
    if (isJsonObject(options) && Array.isArray(options.dryRun) && options.dryRun.length)
      attrs.dryRun = true
  } else {
    const object = await decoded(req, 'object')
    if (isJsonObject(object)) attrs.object = object as KubeObject
    const name = attrs.object?.metadata?.name
    if (!info.name && typeof name === 'string') attrs.name = name
  }
  return attrs
}

const hasBody = (req: Request) =>
  Number(req.headers.get('Content-Length') ?? 0) > 0 || req.headers.has('Transfer-Encoding')

async function decoded(req: Request, allowed: 'object' | 'any'): Promise<unknown> {
  try {
    return await readBody(req, allowed)
  } catch {
    return undefined
  }
}
