import { ApiError, failure } from '../apimachinery/status'
import { maxRequestBodyBytes } from '../config'

/** Reads a request (or response) body within kube-apiserver's 3 MiB limit (413 beyond it). */
export async function readBodyText(req: Body & { headers: Headers }): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(req))
}

/**
 * The body's bytes. A declared length over the limit is refused before reading; a body without
 * one (chunked) is read only up to the limit, then the stream is cancelled.
 */
export async function readBodyBytes(req: Body & { headers: Headers }): Promise<Uint8Array> {
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

function tooLarge(): ApiError {
  return new ApiError(
    failure(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: limit is ${maxRequestBodyBytes}`,
    ),
  )
}
