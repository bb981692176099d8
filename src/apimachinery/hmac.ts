/**
 * HMAC-SHA256 signatures keyed by the admin token, in base64url: what the stateless bearer tokens
 * (service-account tokens) are signed with. WebCrypto, so the Worker and Node share it.
 */

// Typed through importKey so the module also checks against Node's types, which lack a global CryptoKey.
type HmacKey = ReturnType<typeof crypto.subtle.importKey>

const keys = new Map<string, HmacKey>()

function hmacKey(secret: string): HmacKey {
  let key = keys.get(secret)
  if (!key) {
    key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    )
    // One admin token per process in practice; a bound keeps a rotating one from growing the map.
    if (keys.size >= 4) keys.clear()
    keys.set(secret, key)
  }
  return key
}

/** Length of an unpadded base64url HMAC-SHA256 signature. */
export const signatureLength = 43

/** base64url(HMAC-SHA256(secret, text)), unpadded. */
export async function sign(secret: string, text: string): Promise<string> {
  const sig = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret),
    new TextEncoder().encode(text),
  )
  return toBase64Url(new Uint8Array(sig))
}

/** Whether `signature` is the signature of `text`, compared in constant time. */
export async function verify(secret: string, signature: string, text: string): Promise<boolean> {
  const sig = fromBase64Url(signature)
  if (!sig || !secret) return false
  return crypto.subtle.verify('HMAC', await hmacKey(secret), sig, new TextEncoder().encode(text))
}

export function toBase64Url(bytes: Uint8Array): string {
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The bytes of unpadded base64url text; undefined for anything else. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined
  try {
    const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
    const out = new Uint8Array(bin.length)
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
    return out
  } catch {
    return undefined
  }
}
