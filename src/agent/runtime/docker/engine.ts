/**
 * The container engine behind the docker runtime: Docker Engine, or Podman's compatible service,
 * reached over the Docker Engine API on a unix socket through dockerode.
 */
import Docker from 'dockerode'

export interface EngineInfo {
  /** "docker://<version>" or "podman://<version>", as nodeInfo.containerRuntimeVersion */
  runtimeVersion: string
  apiVersion: string
}

/** The engine's product and version, for the Node's nodeInfo. */
export async function engineInfo(docker: Docker): Promise<EngineInfo> {
  const v = (await docker.version()) as Docker.DockerVersion & {
    Components?: { Name: string; Version: string }[]
  }
  const podman = v.Components?.find((c) => c.Name === 'Podman Engine')
  return {
    runtimeVersion: podman ? `podman://${podman.Version}` : `docker://${v.Version}`,
    apiVersion: v.ApiVersion,
  }
}

export function connectEngine(socketPath: string): Docker {
  return new Docker({ socketPath })
}

/** The engine's message of an API error (its JSON `message`), else the error's own. */
export function engineMessage(err: unknown): string {
  const e = err as {
    json?: { message?: string }
    reason?: string
    message?: string
    statusCode?: number
  }
  return e.json?.message ?? e.message ?? String(err)
}

export function isNoSuchObject(err: unknown): boolean {
  return (err as { statusCode?: number }).statusCode === 404
}

/** Pulls an image to the end, resolving with the engine's error message on failure. */
export async function pullImage(docker: Docker, image: string): Promise<void> {
  const stream = await docker.pull(image)
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (err: Error | null, output: { error?: string; errorDetail?: { message?: string } }[]) => {
        if (err) return reject(err)
        const failed = output.find((o) => o.error || o.errorDetail)
        if (failed) return reject(new Error(failed.errorDetail?.message ?? failed.error))
        resolve()
      },
    )
  })
}

/** The image's id if the engine holds it, else undefined. */
export async function imageId(docker: Docker, image: string): Promise<string | undefined> {
  try {
    const info = await docker.getImage(image).inspect()
    return info.Id
  } catch (err) {
    if (isNoSuchObject(err)) return undefined
    throw err
  }
}

/**
 * Splits the engine's multiplexed stdout/stderr framing (8-byte headers: stream, 0, 0, 0, size)
 * into chunks per stream; bytes of an incomplete frame wait for the next call.
 */
export class Demuxer {
  private pending: Buffer = Buffer.alloc(0)

  push(data: Buffer, out: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, data]) : data
    while (this.pending.length >= 8) {
      const size = this.pending.readUInt32BE(4)
      if (this.pending.length < 8 + size) break
      const kind = this.pending[0]
      const chunk = this.pending.subarray(8, 8 + size)
      this.pending = this.pending.subarray(8 + size)
      if (chunk.length) out(kind === 2 ? 'stderr' : 'stdout', chunk)
    }
  }
}
