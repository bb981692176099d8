import type { ApiBindings } from '../bindings'
import type { KubeObject } from '../../apimachinery/types'
import { ApiError, badRequest, failure, invalid, unwrap } from '../../apimachinery/status'
import {
  invalid as invalidCause,
  toStatusCause,
  type FieldCause,
} from '../../apimachinery/field-errors'
import { apiAudiences, mintServiceAccountToken } from '../../apimachinery/service-account-token'
import { findResource } from '../../apis/registry'
import { storeFor } from '../../store-client/stores'
import { jsonBody } from '../http/respond'
import { readCreateBody } from '../authorization/review-body'
import { formatTime } from '../../apimachinery/meta-time'

const group = 'authentication.k8s.io'
const apiVersion = `${group}/v1`
const defaultExpirationSeconds = 3600
const minExpirationSeconds = 10 * 60
const maxExpirationSeconds = 2 ** 32

interface TokenRequestSpec {
  audiences?: string[]
  expirationSeconds?: number
  boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string }
}

/**
 * POST serviceaccounts/{name}/token (`kubectl create token`): a signed, stateless token for the
 * service account, valid until `spec.expirationSeconds` (default an hour, at least ten minutes)
 * from now and while the account exists with the same uid. Binding to a pod, secret or node
 * (`boundObjectRef`) is not supported and refused.
 */
export async function serveTokenRequest(
  req: Request,
  env: ApiBindings,
  namespace: string,
  name: string,
): Promise<Response> {
  // No admin token, no signing key: as a server without one, the subresource is not served.
  if (!env.ADMIN_TOKEN)
    throw new ApiError(failure(404, 'NotFound', 'the server could not find the requested resource'))
  const body = await readCreateBody(req, apiVersion, 'TokenRequest')
  const meta = body.metadata
  if (meta.name && meta.name !== name)
    throw tokenInvalid(
      name,
      invalidCause('metadata.name', meta.name, 'must match the service account name if specified'),
    )
  if (meta.namespace && meta.namespace !== namespace)
    throw tokenInvalid(
      name,
      invalidCause(
        'metadata.namespace',
        meta.namespace,
        'must match the service account namespace if specified',
      ),
    )
  const def = findResource('', 'v1', 'serviceaccounts')!
  const sa = JSON.parse(
    unwrap(await storeFor(env, def).get({ def, namespace, name })),
  ) as KubeObject
  const uid = sa.metadata.uid ?? ''
  if (meta.uid && meta.uid !== uid) {
    throw new ApiError(
      failure(
        409,
        'Conflict',
        `Operation cannot be fulfilled on TokenRequest.${group} "${name}": the UID in the token request (${meta.uid}) does not match the UID of the service account (${uid})`,
        {
          name,
          group,
          kind: 'TokenRequest',
        },
      ),
    )
  }
  const undecodable = specTypeError(body.spec)
  if (undecodable)
    throw new ApiError(
      badRequest(
        `TokenRequest in version "v1" cannot be handled as a TokenRequest: json: ${undecodable}`,
      ),
    )
  const spec = { ...((body.spec ?? {}) as TokenRequestSpec) }
  spec.audiences = spec.audiences?.map((a) => a ?? '')
  if (!spec.audiences?.length) spec.audiences = [...apiAudiences]
  spec.expirationSeconds ??= defaultExpirationSeconds
  const seconds = spec.expirationSeconds
  const causes: FieldCause[] = []
  if (seconds < minExpirationSeconds)
    causes.push(
      invalidCause(
        'spec.expirationSeconds',
        seconds,
        'may not specify a duration less than 10 minutes',
      ),
    )
  if (seconds > maxExpirationSeconds)
    causes.push(
      invalidCause(
        'spec.expirationSeconds',
        seconds,
        'may not specify a duration larger than 2^32 seconds',
      ),
    )
  if (causes.length)
    throw new ApiError(invalid(group, 'TokenRequest', '', causes.map(toStatusCause)))
  if (spec.boundObjectRef) {
    const { apiVersion: refVersion = '', kind = '' } = spec.boundObjectRef
    const gv = refVersion.includes('/') ? refVersion : `/${refVersion}`
    throw new ApiError(
      failure(400, 'BadRequest', `cannot bind token to object of type ${gv}, Kind=${kind}`),
    )
  }
  const now = Date.now()
  const issuedAt = Math.floor(now / 1000)
  const token = await mintServiceAccountToken(env.ADMIN_TOKEN, {
    namespace,
    name,
    uid,
    id: crypto.randomUUID(),
    audiences: spec.audiences,
    issuedAt,
    expiresAt: issuedAt + seconds,
  })
  const out = {
    kind: 'TokenRequest',
    apiVersion,
    metadata: { ...meta, name, namespace, creationTimestamp: formatTime(now) },
    spec: { ...spec, boundObjectRef: spec.boundObjectRef ?? null },
    status: { token, expirationTimestamp: formatTime((issuedAt + seconds) * 1000) },
  }
  return jsonBody(out, 201)
}

/** How Go's JSON decoder names a value it cannot decode into a number or string field. */
function jsonKind(v: unknown): string {
  if (typeof v === 'number') return `number ${v}`
  if (Array.isArray(v)) return 'array'
  return typeof v === 'boolean' ? 'bool' : typeof v
}

const cannot = (v: unknown, field: string, type: string) =>
  `cannot unmarshal ${jsonKind(v)} into Go struct field ${field} of type ${type}`

/**
 * The first value of `spec` that kube-apiserver's decoder refuses (`expirationSeconds` is an
 * int64, `audiences` a []string; null leaves either unset, and a null audience is ""), worded as
 * Go words it.
 */
function specTypeError(spec: unknown): string | undefined {
  if (spec === undefined || spec === null) return undefined
  if (typeof spec !== 'object' || Array.isArray(spec))
    return cannot(spec, 'TokenRequest.spec', 'v1.TokenRequestSpec')
  const { expirationSeconds: seconds, audiences } = spec as Record<string, unknown>
  if (
    seconds !== undefined &&
    seconds !== null &&
    !(typeof seconds === 'number' && Number.isInteger(seconds) && Math.abs(seconds) < 2 ** 63)
  ) {
    return cannot(seconds, 'TokenRequestSpec.spec.expirationSeconds', 'int64')
  }
  if (audiences === undefined || audiences === null) return undefined
  if (!Array.isArray(audiences))
    return cannot(audiences, 'TokenRequestSpec.spec.audiences', '[]string')
  const bad = audiences.find((a) => typeof a !== 'string' && a !== null)
  return bad === undefined ? undefined : cannot(bad, 'TokenRequestSpec.spec.audiences', 'string')
}

function tokenInvalid(name: string, cause: FieldCause): ApiError {
  return new ApiError(invalid(group, 'TokenRequest', name, [toStatusCause(cause)]))
}
