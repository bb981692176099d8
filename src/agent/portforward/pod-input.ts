import type { Socket } from 'node:net'

/** How much of a client's input is held for one of a pod's ports that is not taking it. */
export const maxHeldInput = 1024 * 1024

/**
 * A client's bytes on their way to one of a pod's ports. They are written as they come while the
 * pod's socket takes them, and held, in order, while it connects or while its send buffer is full
 * (its `write()` said to wait) until it drains. The tunnel cannot ask the client to wait, so what
 * is held is bounded: `write` says false, and holds nothing more, once it would pass `limit`.
 */
export class PodInput {
  private socket: Socket | undefined
  private readonly held: Uint8Array[] = []
  private heldBytes = 0
  private waiting = false

  constructor(private readonly limit = maxHeldInput) {}

  /** Sends or holds `bytes`; false when holding them would pass the limit (they are then dropped). */
  write(bytes: Uint8Array): boolean {
    if (this.socket && !this.waiting) {
      if (!this.socket.write(bytes)) this.waitForDrain()
      return true
    }
    if (this.heldBytes + bytes.byteLength > this.limit) return false
    this.held.push(bytes)
    this.heldBytes += bytes.byteLength
    return true
  }

  /** The pod's socket connected: what was held goes first. */
  connected(socket: Socket): void {
    this.socket = socket
    this.flush()
  }

  /** Nothing more is sent: what is held is let go. */
  clear(): void {
    this.held.length = 0
    this.heldBytes = 0
  }

  private flush(): void {
    this.waiting = false
    while (this.held.length > 0 && this.socket && !this.socket.destroyed) {
      const chunk = this.held.shift()!
      this.heldBytes -= chunk.byteLength
      if (!this.socket.write(chunk)) return this.waitForDrain()
    }
  }

  private waitForDrain(): void {
    this.waiting = true
    this.socket!.once('drain', () => this.flush())
  }
}
