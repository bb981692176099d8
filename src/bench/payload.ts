/** Every written object is exactly this many bytes of request JSON. */
export const PAYLOAD_BYTES = 1024

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/** Object names sort in creation order and stay unique within a run. */
export function objectName(prefix: string, i: number): string {
  return `${prefix}-${String(i).padStart(6, '0')}`
}

/**
 * A ConfigMap of exactly 1 KiB of JSON whose data value is filled to size. The filler varies per
 * object so that nothing along the path can get away with caching one body.
 */
export function configMapJson(name: string, namespace?: string): string {
  const metadata = namespace === undefined ? { name } : { name, namespace }
  const shell = JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata,
    data: { payload: '' },
  })
  const fill = PAYLOAD_BYTES - Buffer.byteLength(shell)
  if (fill < 0) throw new Error(`name ${name} leaves no room for a ${PAYLOAD_BYTES}-byte body`)
  let seed = 0
  for (const c of name) seed = (seed * 31 + c.charCodeAt(0)) >>> 0
  let payload = ''
  for (let i = 0; i < fill; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0
    payload += ALPHABET[(seed >>> 16) % ALPHABET.length]
  }
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { payload } })
}
