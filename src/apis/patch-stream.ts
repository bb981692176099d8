import type { Status } from '../apimachinery/types'
import type { Target, WriteOptions } from './store-options'

/**
 * A patch stream: one WebSocket that carries many JSON merge patches of one object, each as the
 * same PATCH would be made. The API server decides once, on the upgrade, who may write what
 * (`PatchGrant`), and the store holding the object applies each message within that grant alone.
 * A node's heartbeat uses it: its Lease's `renewTime`, every 10 s, as incoming WebSocket messages
 * rather than separate requests.
 */
export interface PatchGrant {
  /** the one object every patch writes */
  target: Target
  /** the leaf fields (dotted paths) a message may set */
  fields: string[]
  /** merged over every patch: what the writer may not choose */
  fixed: Record<string, unknown>
  /** as the PATCH's (field manager, node writer, requester) */
  opts: WriteOptions
}

/** The request header the API server hands a grant to the store in. */
export const patchGrantHeader = 'X-Edgeplane-Patch-Grant'

/** A message on the stream: `{"id": 1, "patch": {...}}`. */
export interface PatchMessage {
  id: number
  patch: Record<string, unknown>
}

/** The answer to one message: the object's new resourceVersion, or the Status the PATCH would have got. */
export type PatchReply = { id: number; resourceVersion: string } | { id: number; status: Status }

/** The most a message may hold. */
export const patchMessageBytes = 4096

/** The message read, or why it cannot be: a field outside the grant is named. */
export function readPatchMessage(
  text: string,
  fields: readonly string[],
): { ok: true; message: PatchMessage } | { ok: false; id: number; reason: string } {
  if (text.length > patchMessageBytes)
    return { ok: false, id: 0, reason: `a message holds at most ${patchMessageBytes} bytes` }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { ok: false, id: 0, reason: 'a message is a JSON object' }
  }
  if (!isObject(parsed)) return { ok: false, id: 0, reason: 'a message is a JSON object' }
  const id = Number.isSafeInteger(parsed.id) ? (parsed.id as number) : 0
  if (!id) return { ok: false, id, reason: 'id: Required value: a positive integer' }
  if (!isObject(parsed.patch)) return { ok: false, id, reason: 'patch: Required value: an object' }
  const outside = leafPaths(parsed.patch).find((path) => !fields.includes(path))
  if (outside !== undefined)
    return { ok: false, id, reason: `${outside}: Forbidden: may not be set on this stream` }
  return { ok: true, message: { id, patch: parsed.patch } }
}

/** The dotted paths of a value's leaves (an empty object is a leaf). */
function leafPaths(value: Record<string, unknown>, prefix = ''): string[] {
  const paths: string[] = []
  for (const [key, v] of Object.entries(value)) {
    const path = prefix + key
    if (isObject(v) && Object.keys(v).length) paths.push(...leafPaths(v, `${path}.`))
    else paths.push(path)
  }
  return paths
}

/** `fixed` merged over `patch`: a fixed leaf always wins. */
export function withFixed(
  patch: Record<string, unknown>,
  fixed: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...patch }
  for (const [key, v] of Object.entries(fixed))
    out[key] = isObject(v) && isObject(out[key]) ? withFixed(out[key], v) : v
  return out
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
