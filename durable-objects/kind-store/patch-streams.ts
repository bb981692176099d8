import { badRequest, type StoreResult } from '../../src/apimachinery/status'
import type { WriteResult } from '../../src/apis/store-options'
import {
  readPatchMessage,
  withFixed,
  type PatchGrant,
  type PatchReply,
} from '../../src/apis/patch-stream'

/** The socket tag of every patch stream (watchers have others). */
export const patchStreamTag = 'patch-stream'
/** A platform tag holds at most 256 characters. */
const maxTagLength = 256

/** The tag of the streams that write one object, so a newer stream replaces the older. */
function objectTag(grant: PatchGrant): string | undefined {
  const tag = `patches:${grant.target.namespace ?? ''}/${grant.target.name}`
  return tag.length <= maxTagLength ? tag : undefined
}

interface StreamAttachment {
  patchStream: PatchGrant
}

/**
 * The store's patch streams (src/apis/patch-stream.ts): hibernatable sockets, each writing one
 * object within the grant the API server attached on the upgrade. A message wakes the store only
 * as an incoming WebSocket message; the write is the store's own, so watchers, deadlines and
 * controllers hear of it as of any PATCH.
 */
export class PatchStreams {
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly patch: (grant: PatchGrant, patch: unknown) => StoreResult<WriteResult>,
  ) {}

  /** Accepts a stream for `grant`; an older one writing the same object is closed. */
  accept(grant: PatchGrant): Response {
    const tag = objectTag(grant)
    if (tag)
      for (const old of this.ctx.getWebSockets(tag)) close(old, 1000, 'replaced by a newer stream')
    const pair = new WebSocketPair()
    this.ctx.acceptWebSocket(pair[1], tag ? [patchStreamTag, tag] : [patchStreamTag])
    pair[1].serializeAttachment({ patchStream: grant } satisfies StreamAttachment)
    return new Response(null, { status: 101, webSocket: pair[0] })
  }

  /** The grant of a patch stream's socket; undefined for any other socket (a watcher). */
  grantOf(ws: WebSocket): PatchGrant | undefined {
    if (!this.ctx.getTags(ws).includes(patchStreamTag)) return undefined
    return (ws.deserializeAttachment() as StreamAttachment | null)?.patchStream
  }

  /** One message: the patch made within the socket's grant, answered with its outcome. */
  message(ws: WebSocket, grant: PatchGrant, data: string | ArrayBuffer): void {
    const text = typeof data === 'string' ? data : new TextDecoder().decode(data)
    const read = readPatchMessage(text, grant.fields)
    let reply: PatchReply
    if (!read.ok) reply = { id: read.id, status: badRequest(read.reason) }
    else {
      const result = this.patch(grant, withFixed(read.message.patch, grant.fixed))
      const id = read.message.id
      reply = result.ok
        ? { id, resourceVersion: resourceVersionOf(result.value.object) }
        : { id, status: result.status }
    }
    try {
      ws.send(JSON.stringify(reply))
    } catch {
      /* the client went away; it renews again through its next stream */
    }
  }

  /** Closes the streams of objects named `name` (every stream when undefined), saying why. */
  close(code: number, reason: string, name?: string): number {
    let closed = 0
    for (const ws of this.ctx.getWebSockets(patchStreamTag)) {
      if (name !== undefined && this.grantOf(ws)?.target.name !== name) continue
      close(ws, code, reason)
      closed++
    }
    return closed
  }
}

function resourceVersionOf(text: string): string {
  return (JSON.parse(text) as { metadata?: { resourceVersion?: string } }).metadata
    ?.resourceVersion as string
}

function close(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason.slice(0, 120))
  } catch {
    /* already closed */
  }
}
