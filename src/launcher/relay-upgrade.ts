import type { Duplex } from 'node:stream'
import { relayFrames } from './websocket-records'

/**
 * Relays an upgraded connection (WebSocket, SPDY) to the Worker: `open` connects and calls back
 * once connected; the request head is written, then whatever the client already sent, and the two
 * sockets are piped both ways until either ends.
 */
export function relayUpgrade(
  socket: Duplex,
  head: Buffer,
  requestHead: string,
  open: (connected: () => void) => Duplex,
): void {
  const up = open(() => {
    up.write(requestHead)
    if (head.length) up.write(head)
    // A WebSocket's frames each in a write of their own (see websocket-records.ts); anything else as it comes.
    if (/^upgrade:[ \t]*websocket[ \t]*$/im.test(requestHead)) relayFrames(up, socket)
    else up.pipe(socket)
    socket.pipe(up)
  })
  const close = () => {
    up.destroy()
    socket.destroy()
  }
  up.on('error', close)
  socket.on('error', close)
  up.on('close', close)
  socket.on('close', close)
}
