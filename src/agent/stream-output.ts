import type { End } from '../agent-protocol/tunnel-messages'

/** What a tunnel stream writes back to the gateway (tunnel.ts makes one per stream). */
export interface StreamOutput {
  data(channel: number, chunk: Uint8Array): void
  end(end: Omit<End, 'op' | 'id'>): void
  /** resolves once the tunnel's send queue is short again */
  drained(): Promise<void>
  /** whether the tunnel's send queue is long (a source pauses until drained) */
  congested(): boolean
}
