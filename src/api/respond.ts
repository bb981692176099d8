import type { Status } from '../apimachinery/types'

const json = { 'Content-Type': 'application/json' }

/** A JSON body that is already serialised. */
export function jsonText(text: string, status = 200, warnings?: string[]): Response {
  const headers = new Headers(json)
  for (const w of warnings ?? []) headers.append('Warning', `299 - ${JSON.stringify(w)}`)
  return new Response(text, { status, headers })
}

export function jsonBody(value: unknown, status = 200, warnings?: string[]): Response {
  return jsonText(JSON.stringify(value), status, warnings)
}

export function statusResponse(status: Status): Response {
  return jsonBody(status, status.code)
}

