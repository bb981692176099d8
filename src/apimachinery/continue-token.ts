/** The list continuation token: the snapshot's resourceVersion and the last key returned. */
export interface ContinueToken {
  rv: number
  start: string
}

export function encodeContinue(token: ContinueToken): string {
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.rv, start: token.start })
  return btoa(String.fromCharCode(...new TextEncoder().encode(json)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

/** Returns undefined for a token that is not ours. */
export function decodeContinue(text: string): ContinueToken | undefined {
  try {
    const b64 = text.replace(/-/g, '+').replace(/_/g, '/')
    const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) =>
      c.charCodeAt(0),
    )
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as { rv?: unknown; start?: unknown }
    if (typeof parsed.rv !== 'number' || typeof parsed.start !== 'string') return undefined
    return { rv: parsed.rv, start: parsed.start }
  } catch {
    return undefined
  }
}
