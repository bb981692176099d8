/**
 * The engine's hijacked attach: `POST /containers/{id}/attach` upgraded to a raw two-way stream,
 * sent with no body. (A body, as dockerode sends its options, would reach the process's stdin on
 * Podman; and a chunked request without one is never sent.) Node's own http, on the engine's socket.
 */
import { request } from 'node:http'
import type { Duplex } from 'node:stream'
import type Docker from 'dockerode'

export async function hijackAttach(docker: Docker, id: string, stdin: boolean): Promise<Duplex> {
  const modem = docker.modem as { socketPath?: string | (() => string | Promise<string>) }
  const socketPath =
    typeof modem.socketPath === 'function' ? await modem.socketPath() : modem.socketPath
  if (!socketPath) throw new Error('attaching with stdin needs the engine on a unix socket')
  const query = new URLSearchParams({
    stream: '1',
    stdout: '1',
    stderr: '1',
    stdin: stdin ? '1' : '0',
  })
  return new Promise<Duplex>((resolve, reject) => {
    const req = request({
      socketPath,
      method: 'POST',
      path: `/containers/${encodeURIComponent(id)}/attach?${query}`,
      headers: { Connection: 'Upgrade', Upgrade: 'tcp' },
    })
    req.on('upgrade', (_res, socket, head) => {
      if (head.length) socket.unshift(head)
      resolve(socket)
    })
    req.on('response', (res) => {
      // No upgrade: the engine refused (the container is gone or not running); its message says why.
      let body = ''
      res.on('data', (c: Buffer) => (body += c.toString()))
      res.on('end', () => {
        let message = body.trim()
        try {
          message = (JSON.parse(body) as { message?: string }).message ?? message
        } catch {
          // plain text
        }
        reject(new Error(message || `the engine answered ${res.statusCode} to attach`))
      })
    })
    req.on('error', reject)
    req.end()
  })
}
