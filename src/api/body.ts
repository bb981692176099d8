import { parse as parseYaml } from 'yaml'
import { ApiError, badRequest, failure } from '../apimachinery/status'
import { maxRequestBodyBytes } from '../config'
import { decodeProtobufBody, UnsupportedProtobufKind } from '../apimachinery/protobuf'

/** Reads a request (or response) body within kube-apiserver's 3 MiB limit (413 beyond it). */
export async function readBodyText(req: Body & { headers: Headers }): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(req))
}

/**
 * The body's bytes. A declared length over the limit is refused before reading; a body without
 * one (chunked) is read only up to the limit, then the stream is cancelled.
 */
async function readBodyBytes(req: Body & { headers: Headers }): Promise<Uint8Array> {
  const declared = Number(req.headers.get('Content-Length') ?? 0)
  if (declared > maxRequestBodyBytes) throw tooLarge()
  if (!req.body) return new Uint8Array()
  const reader = req.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxRequestBodyBytes) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(value)
  }
  return concatBytes(chunks, size)
}

/** The chunks of a body read so far, as one array of `size` bytes. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}

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

function tooLarge(): ApiError {
  return new ApiError(failure(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${maxRequestBodyBytes}`))
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
