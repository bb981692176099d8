import WebSocket from 'ws'
import type { TestServer } from './server'

/** Opens a WebSocket to `server` as `token`; resolves with the upgrade's status (101 when it opened) and any refusal's body. */
export function upgrade(
  server: TestServer,
  token: string,
  path: string,
  protocol: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`wss://127.0.0.1:${server.port}${path}`, [protocol], {
      ca: server.ca,
      headers: { Authorization: `Bearer ${token}` },
    })
    ws.on('unexpected-response', (_req, res) => {
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString('utf8')))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    ws.on('open', () => {
      ws.close()
      resolve({ status: 101, body: '' })
    })
    ws.on('error', reject)
  })
}
