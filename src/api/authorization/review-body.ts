import type { KubeObject } from '../../apimachinery/types'
import { ApiError, badRequest, methodNotAllowed } from '../../apimachinery/status'
import { readBody } from '../http/body'

/**
 * The body of a create on a create-only endpoint (reviews, token requests): POST only (405
 * otherwise, as for any verb the resource lacks), JSON, YAML or protobuf, and when it names its
 * apiVersion and kind they must be the endpoint's.
 */
export async function readCreateBody(
  req: Request,
  apiVersion: string,
  kind: string,
): Promise<KubeObject> {
  if (req.method !== 'POST')
    throw new ApiError(
      methodNotAllowed('the server does not allow this method on the requested resource'),
    )
  const body = (await readBody(req)) as KubeObject
  if (body.apiVersion !== undefined && body.apiVersion !== apiVersion) {
    throw new ApiError(
      badRequest(
        `the API version in the data (${body.apiVersion}) does not match the expected API version (${apiVersion})`,
      ),
    )
  }
  if (body.kind !== undefined && body.kind !== kind)
    throw new ApiError(
      badRequest(`the kind in the data (${body.kind}) does not match the expected kind (${kind})`),
    )
  if (!body.metadata || typeof body.metadata !== 'object') body.metadata = {}
  return body
}
