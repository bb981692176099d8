import { createServer } from 'node:net'

/**
 * Fails early with a readable message when the port is taken; workerd would otherwise only say
 * that the runtime failed to start.
 */
export function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new Error(
          err.code === 'EADDRINUSE'
            ? `port ${port} on ${host} is already in use (set EDGEPLANE_PORT to another port)`
            : `cannot listen on ${host}:${port}: ${err.message}`,
        ),
      )
    })
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()))
  })
}
