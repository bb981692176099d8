/** Finding a container engine's Docker Engine API socket (no client library: the launcher uses it too). */
import { existsSync } from 'node:fs'
import { request } from 'node:http'

/** Where an engine's socket is looked for when none is named: Docker's, then Podman's (rootless, then rootful). */
export function socketCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const out = ['/var/run/docker.sock']
  if (env.XDG_RUNTIME_DIR) out.push(`${env.XDG_RUNTIME_DIR}/podman/podman.sock`)
  out.push('/run/podman/podman.sock')
  return out
}

/** Whether an engine answers `_ping` on this socket within the timeout. */
export function pingSocket(socketPath: string, timeoutMs = 1_500): Promise<boolean> {
  if (!existsSync(socketPath)) return Promise.resolve(false)
  return new Promise((resolve) => {
    const req = request(
      { socketPath, path: '/_ping', method: 'GET', timeout: timeoutMs },
      (res) => {
        res.resume()
        resolve(res.statusCode === 200)
      },
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => resolve(false))
    req.end()
  })
}

/** The first socket an engine answers on: the named one only, or the candidates in order. */
export async function findSocket(
  named: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  for (const path of named ? [named] : socketCandidates(env))
    if (await pingSocket(path)) return path
  return undefined
}
