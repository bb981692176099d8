/**
 * The size of a value as the runtime's structured serialization (V8's ValueSerializer, which Workers
 * RPC uses for arguments and return values) writes it, closely enough to hold it to the 32 MiB
 * limit: strings of Latin-1 characters take a byte each and others two, numbers up to 9 bytes,
 * plus a tag and a length for every value. Object graphs here are trees of plain data.
 */
export function serializedSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringSize(value)
    case 'number':
      return Number.isInteger(value) && Math.abs(value) < 2 ** 30
        ? 1 + varintSize(Math.abs(value) * 2)
        : 9
    case 'boolean':
    case 'undefined':
      return 1
    case 'bigint':
      return 2 + Math.ceil(value.toString(16).length / 2)
    case 'object':
      break
    default:
      return 1
  }
  if (value === null) return 1
  if (ArrayBuffer.isView(value)) return 2 + varintSize(value.byteLength) + value.byteLength
  if (value instanceof ArrayBuffer) return 1 + varintSize(value.byteLength) + value.byteLength
  if (Array.isArray(value)) {
    let n = 1 + varintSize(value.length) + 1 + varintSize(value.length) + 1
    for (const v of value) n += serializedSize(v)
    return n
  }
  let n = 2
  let keys = 0
  for (const k in value as Record<string, unknown>) {
    if (!Object.prototype.hasOwnProperty.call(value, k)) continue
    n += stringSize(k) + serializedSize((value as Record<string, unknown>)[k])
    keys++
  }
  return n + varintSize(keys)
}

// eslint-disable-next-line no-control-regex
const beyondLatin1 = /[^\u0000-\u00ff]/

function stringSize(s: string): number {
  const bytes = beyondLatin1.test(s) ? s.length * 2 : s.length
  return 1 + varintSize(bytes) + bytes
}

function varintSize(n: number): number {
  let size = 1
  while (n >= 0x80) {
    n = Math.floor(n / 0x80)
    size++
  }
  return size
}
