import { parse as parseYaml } from 'yaml'
import { ApiError, badRequest, failure } from '../../apimachinery/status'
import { readBodyBytes, readBodyText } from '../../service-client/body-limit'
import { decodeProtobufBody, UnsupportedProtobufKind } from '../../apimachinery/protobuf'
import {
  isStackExhaustion,
  nestedDeeperThan,
  tooDeeplyNestedMessage,
} from '../../apimachinery/nesting'

const PROTOBUF = 'application/vnd.kubernetes.protobuf'

/**
 * kubectl's create generators, `create token` and `auth can-i|whoami` send protobuf with no JSON
 * fallback, so those kinds are decoded into the objects their JSON form would give.
 */
async function readProtobuf(req: Request): Promise<Record<string, unknown>> {
  const bytes = await readBodyBytes(req)
  try {
    return decodeProtobufBody(bytes)
  } catch (e) {
    if (e instanceof UnsupportedProtobufKind) {
      throw new ApiError(
        failure(
          415,
          'UnsupportedMediaType',
          `the body of the request was in an unknown format - ${e.message}`,
        ),
      )
    }
    throw new ApiError(badRequest(`couldn't decode the protobuf body: ${(e as Error).message}`))
  }
}

const unsupported = (media: string) =>
  new ApiError(
    failure(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (got ${media})`,
    ),
  )

const tooDeep = () => new ApiError(badRequest(tooDeeplyNestedMessage))

/** Decodes a JSON, YAML or protobuf body, refusing one nested deeper than maxNestingDepth. */
async function decode(req: Request): Promise<unknown> {
  const media = (req.headers.get('Content-Type') ?? 'application/json')
    .split(';')[0]!
    .trim()
    .toLowerCase()
  let value: unknown
  if (media === PROTOBUF) {
    value = await readProtobuf(req)
  } else {
    const yaml = media === 'application/yaml' || media === 'application/apply-patch+yaml'
    if (!yaml && media !== 'application/json' && !media.endsWith('+json') && media !== '')
      throw unsupported(media)
    const text = await readBodyText(req)
    try {
      value = yaml ? parseYaml(text) : JSON.parse(text)
    } catch (e) {
      if (isStackExhaustion(e)) throw tooDeep()
      throw new ApiError(
        badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`),
      )
    }
  }
  if (nestedDeeperThan(value)) throw tooDeep()
  return value
}

/** A request's body and its one decoding, shared by the requests derived from it to read the same body. */
interface Body {
  source: Request
  decoded?: Promise<unknown>
}

const bodies = new WeakMap<Request, Body>()

function bodyOf(req: Request): Body {
  let body = bodies.get(req)
  if (!body) {
    body = { source: req }
    bodies.set(req, body)
  }
  return body
}

/**
 * A request's body, decoded once (JSON, YAML as the apiserver accepts it and for apply patches, or
 * protobuf): the authorizer, each admission step, a dry-run trial and the handler all read that
 * one decoding, each its own copy; a body that does not decode is refused the same way each time.
 */
export async function readBody(
  req: Request,
  allowed: 'object' | 'any' = 'object',
): Promise<unknown> {
  const body = bodyOf(req)
  body.decoded ??= decode(body.source)
  const value = structuredClone(await body.decoded)
  if (
    allowed === 'object' &&
    (value === null || typeof value !== 'object' || Array.isArray(value))
  ) {
    throw new ApiError(badRequest('the body of the request must be a JSON object'))
  }
  return value
}
