/** The pods' own subresources: binding (the scheduler's write), eviction (kubectl drain) and ephemeral containers. */
import type { ApiBindings } from '../bindings'
import { ApiError, invalid, methodNotAllowed, success, unwrap } from '../../apimachinery/status'
import type { ResourceDef } from '../../apis/resource-def'
import { admitPodBinding } from '../../admission/pod-security/process-node'
import { storeFor } from '../../store-client/stores'
import { readBody } from '../http/body'
import { servePodEviction } from '../pods/eviction'
import { writeOptions } from '../http/query'
import { jsonBody } from '../http/respond'
import type { KindApi } from './types'

/** The body of a POST-only subresource. */
async function postBody(req: Request): Promise<Record<string, unknown>> {
  if (req.method !== 'POST')
    throw new ApiError(
      methodNotAllowed('the server does not allow this method on the requested resource'),
    )
  return (await readBody(req)) as Record<string, unknown>
}

/** POST pods/{name}/binding: binds the pod to the node the Binding names. */
async function serveBinding(
  req: Request,
  env: ApiBindings,
  def: ResourceDef,
  namespace: string | undefined,
  name: string,
): Promise<Response> {
  const q = new URL(req.url).searchParams
  const body = await postBody(req)
  const target = { def, namespace, name }
  const node = (body.target as { name?: unknown } | undefined)?.name
  if (typeof node !== 'string' || !node) {
    throw new ApiError(
      invalid('', 'Binding', name, [
        { field: 'target.name', reason: 'FieldValueRequired', message: 'Required value' },
      ]),
    )
  }
  const uid = (body.metadata as { uid?: string } | undefined)?.uid
  await admitPodBinding(env, target, node)
  unwrap(await storeFor(env, def).bind(target, node, uid, writeOptions(q)))
  return jsonBody(success(undefined, 201), 201)
}

async function serveEviction(
  req: Request,
  env: ApiBindings,
  def: ResourceDef,
  namespace: string | undefined,
  name: string,
): Promise<Response> {
  return servePodEviction(req, env, def, namespace ?? '', name, await postBody(req))
}

export const podsApi: KindApi = {
  subresources: {
    binding: { serve: serveBinding },
    eviction: { serve: serveEviction },
    // Reads and writes the Pod; a write changes only spec.ephemeralContainers (the pod's strategy).
    ephemeralcontainers: { methods: ['GET', 'PUT', 'PATCH'], otherwise: 'MethodNotAllowed' },
  },
}
