import { statusIsJson } from './stream-protocols'

/**
 * The Status kubectl reads from channel 3 when an exec ends, as the kubelet writes it: Success,
 * NonZeroExitCode with the code as the `ExitCode` cause (kubectl exits with it and prints
 * `command terminated with exit code N`), or an internal error.
 */
export function execStatus(
  end: { exitCode?: number; error?: string },
  command: string[],
): Record<string, unknown> {
  if (end.error !== undefined) {
    return {
      metadata: {},
      status: 'Failure',
      message: `Internal error occurred: ${end.error}`,
      reason: 'InternalError',
      details: { causes: [{ message: end.error }] },
      code: 500,
    }
  }
  const code = end.exitCode ?? 0
  if (code === 0) return { metadata: {}, status: 'Success' }
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
  }
}

/**
 * What the error channel carries for a Status in a protocol: the JSON Status (v4, v5), or only a
 * failure's message as text (`channel.k8s.io` and its base64 form; nothing on success).
 */
export function statusPayload(
  protocol: string,
  status: Record<string, unknown>,
): Uint8Array | undefined {
  if (statusIsJson(protocol)) return new TextEncoder().encode(JSON.stringify(status))
  if (status.status === 'Success') return undefined
  return new TextEncoder().encode(String(status.message ?? ''))
}

/** A channel frame of the gateway's own relays: the stream byte, then the payload. */
export function channelFrame(channel: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(payload.byteLength + 1)
  out[0] = channel
  out.set(payload, 1)
  return out
}
