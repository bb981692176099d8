/**
 * A synchronous 64-bit hash of a string as 16 upper-case hex digits. The OpenAPI index must name
 * each document by a hash before any request handler could await Web Crypto, and the hash only
 * busts kubectl's URL-keyed cache, so it need not be cryptographic.
 */
export function hashText(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  const hex = (n: number) => (n >>> 0).toString(16).toUpperCase().padStart(8, '0')
  return hex(h2) + hex(h1)
}
