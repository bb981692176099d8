import type { Status } from '../../apimachinery/types'
import { encodableStatus, isStatus } from '../../apimachinery/status'

const json = { 'Content-Type': 'application/json' }

/**
 * Responses whose JSON body already ends as kube-apiserver's encoder ends one (with a newline):
 * the JSON framing middleware (`pretty.ts`) passes them on as they are.
 */
const framed = new WeakSet<Response>()

export function isFramedJson(res: Response): boolean {
  return framed.has(res)
}

/** A JSON response whose body (a string or a stream) ends with the newline json.Encoder writes. */
export function framedJsonResponse(
  body: string | ReadableStream<Uint8Array>,
  init: ResponseInit,
): Response {
  const res = new Response(typeof body === 'string' ? withNewline(body) : body, init)
  framed.add(res)
  return res
}

/** The text with the newline Go's json.Encoder ends every value with. */
export function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`
}

/** A JSON body that is already serialised. */
export function jsonText(text: string, status = 200, warnings?: string[]): Response {
  const headers = new Headers(json)
  appendWarnings(headers, warnings)
  return framedJsonResponse(text, { status, headers })
}

/** Each warning as the `Warning: 299 - "…"` header kube-apiserver sends (kubectl prints it). */
export function appendWarnings(headers: Headers, warnings: readonly string[] | undefined): void {
  for (const w of warnings ?? []) headers.append('Warning', `299 - ${JSON.stringify(w)}`)
}

export function jsonBody(value: unknown, status = 200, warnings?: string[]): Response {
  return jsonText(
    JSON.stringify(isStatus(value) ? encodableStatus(value) : value),
    status,
    warnings,
  )
}

export function statusResponse(status: Status): Response {
  return jsonBody(status, status.code)
}
