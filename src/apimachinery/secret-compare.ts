/**
 * Comparing secrets without leaking them through timing: both sides are HMAC-SHA256'd with a key
 * drawn at random per process, and the fixed-length digests are compared in constant time, so
 * neither the position of the first difference nor the secret's length shows in the time taken.
 * WebCrypto, so the Worker and Node share it.
 */

const encoder = new TextEncoder()
let key: ReturnType<typeof crypto.subtle.importKey> | undefined

function compareKey(): ReturnType<typeof crypto.subtle.importKey> {
  key ??= crypto.subtle.importKey(
    'raw',
    crypto.getRandomValues(new Uint8Array(32)),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  return key
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await compareKey(), encoder.encode(text)))
}

/** Whether two secrets are equal, in time independent of where they differ and of their lengths. */
export async function sameSecret(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([digest(a), digest(b)])
  let diff = 0
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!
  return diff === 0
}

/** Lower-case hex SHA-256 of a text: how a secret is kept when only its holder needs to know it. */
export async function sha256Hex(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** `length` characters drawn uniformly from [a-z0-9], as bootstrap token ids and secrets are. */
export function randomTokenText(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'
  let out = ''
  // 252 is the largest multiple of 36 below 256: rejecting bytes above it keeps the draw uniform.
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < 252 && out.length < length) out += alphabet[b % 36]
    }
  }
  return out
}
