import { parse as parseYaml } from 'yaml'
import { ApiError, badRequest, failure } from '../apimachinery/status'
import { readBodyBytes, readBodyText } from '../service-client/body-limit'
import { decodeProtobufBody, UnsupportedProtobufKind } from '../apimachinery/protobuf'

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
      throw new ApiError(failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - ${e.message}`))
    }
    throw new ApiError(badRequest(`couldn't decode the protobuf body: ${(e as Error).message}`))
  }
}

const unsupported = (media: string) =>
  new ApiError(
    failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (got ${media})`),
  )

/** Decodes a JSON or YAML body (YAML as the apiserver accepts it, and for apply patches). */
export async function readBody(req: Request, allowed: 'object' | 'any' = 'object'): Promise<unknown> {
  const media = (req.headers.get('Content-Type') ?? 'application/json').split(';')[0]!.trim().toLowerCase()
  if (media === PROTOBUF) return readProtobuf(req)
  const yaml = media === 'application/yaml' || media === 'application/apply-patch+yaml'
  if (!yaml && media !== 'application/json' && !media.endsWith('+json') && media !== '') throw unsupported(media)
  const text = await readBodyText(req)
  let value: unknown
  try {
    value = yaml ? parseYaml(text) : JSON.parse(text)
  } catch (e) {
    throw new ApiError(badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`))
  }
  if (allowed === 'object' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
    throw new ApiError(badRequest('the body of the request must be a JSON object'))
  }
  return value
}
