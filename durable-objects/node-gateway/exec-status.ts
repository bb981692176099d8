/**
 * The Status kubectl reads from channel 3 when an exec ends, as the kubelet writes it: Success,
 * NonZeroExitCode with the code as the `ExitCode` cause (kubectl exits with it and prints
 * `command terminated with exit code N`), or an internal error.
 */
export function execStatus(end: { exitCode?: number; error?: string }, command: string[]): Record<string, unknown> {
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

/** A v5 channel frame: the stream byte, then the payload. */
export function channelFrame(channel: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(payload.byteLength + 1)
  out[0] = channel
  out.set(payload, 1)
  return out
}
