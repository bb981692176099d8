import type { TerminalSize } from './runtime/types'

/** The window sizes a terminal client sends (`{"Width":80,"Height":24}`), passed to the runtime's listener; the last is kept for a late one. */
export class ResizeChannel {
  private last: TerminalSize | undefined
  private listener: ((size: TerminalSize) => void) | undefined

  push(payload: Uint8Array): void {
    try {
      const { Width, Height } = JSON.parse(Buffer.from(payload).toString('utf8')) as {
        Width?: unknown
        Height?: unknown
      }
      if (typeof Width !== 'number' || typeof Height !== 'number' || Width <= 0 || Height <= 0)
        return
      this.last = { width: Math.floor(Width), height: Math.floor(Height) }
      this.listener?.(this.last)
    } catch {
      // not a size: ignored, as the kubelet ignores it
    }
  }

  listen(listener: (size: TerminalSize) => void): void {
    this.listener = listener
    if (this.last) listener(this.last)
  }
}
