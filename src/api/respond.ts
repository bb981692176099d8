import type { Status } from '../apimachinery/types'

const json = { 'Content-Type': 'application/json' }

/** A JSON body that is already serialised. */
export function jsonText(text: string, status = 200, warnings?: string[]): Response {
  const headers = new Headers(json)
  appendWarnings(headers, warnings)
  return new Response(text, { status, headers })
}

/** Each warning as the `Warning: 299 - "…"` header kube-apiserver sends (kubectl prints it). */
export function appendWarnings(headers: Headers, warnings: readonly string[] | undefined): void {
  for (const w of warnings ?? []) headers.append('Warning', `299 - ${JSON.stringify(w)}`)
}

export function jsonBody(value: unknown, status = 200, warnings?: string[]): Response {
  return jsonText(JSON.stringify(value), status, warnings)
}

export function statusResponse(status: Status): Response {
  return jsonBody(status, status.code)
}

