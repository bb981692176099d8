import { ProtobufError, utf8Text, WIRE_BYTES, WIRE_VARINT, WireReader } from './wire'
import type { Field, FieldType, MessageRef, Table } from './schema'
import type { JsonValue as Json } from '../json-value'
import { maxNestingDepth, tooDeeplyNestedMessage } from '../nesting'

/**
 * Decodes one message into the object its JSON encoding would give. Unknown fields are skipped.
 * Messages nest no deeper than maxNestingDepth (`depth` is this one's), as any decoded body.
 */
export function decodeMessage(table: Table, buf: Uint8Array, depth = 1): Record<string, Json> {
  if (depth > maxNestingDepth) throw new ProtobufError(tooDeeplyNestedMessage)
  const out: Record<string, Json> = {}
  const r = new WireReader(buf)
  while (!r.done()) {
    const { field, wire } = r.tag()
    const def = table[field]
    if (!def) {
      r.skip(wire)
      continue
    }
    if (def.map) {
      expectWire(def, wire, WIRE_BYTES)
      const [key, value] = readEntry(def, r.bytes(), depth)
      const target = (out[def.name] ??= {}) as Record<string, Json>
      target[key] = value
    } else if (def.inline) {
      expectWire(def, wire, WIRE_BYTES)
      Object.assign(out, decodeMessage((def.type as MessageRef)(), r.bytes(), depth + 1))
    } else if (def.repeated) {
      const items = (out[def.name] ??= []) as Json[]
      if (wire === WIRE_BYTES && (def.type === 'int' || def.type === 'bool')) {
        // Packed numbers: a run of varints in one length-delimited field.
        const packed = new WireReader(r.bytes())
        while (!packed.done()) items.push(scalar(def.type, packed))
      } else {
        items.push(readValue(def, def.type, wire, r, depth))
      }
    } else {
      const value = readValue(def, def.type, wire, r, depth)
      if (def.keep || !isZero(value)) out[def.name] = value
      else delete out[def.name]
    }
  }
  return out
}

function readValue(def: Field, type: FieldType, wire: number, r: WireReader, depth: number): Json {
  if (type === 'int' || type === 'bool') {
    expectWire(def, wire, WIRE_VARINT)
    return scalar(type, r)
  }
  expectWire(def, wire, WIRE_BYTES)
  const bytes = r.bytes()
  return fromBytes(type, bytes, depth)
}

function scalar(type: 'int' | 'bool', r: WireReader): Json {
  return type === 'bool' ? r.varint() !== 0n : r.int()
}

function fromBytes(
  type: Exclude<FieldType, 'int' | 'bool'>,
  bytes: Uint8Array,
  depth: number,
): Json {
  switch (type) {
    case 'string':
      return utf8Text(bytes)
    case 'bytes':
      return base64(bytes)
    case 'time':
      return timeJson(bytes)
    case 'quantity':
      return quantityJson(bytes)
    case 'intstr':
      return intOrStringJson(bytes)
    default:
      return decodeMessage(type(), bytes, depth + 1)
  }
}

/** A map entry; a missing key or value is the zero value, as in any proto message. */
function readEntry(def: Field, bytes: Uint8Array, depth: number): [string, Json] {
  const r = new WireReader(bytes)
  let key = ''
  let value: Json | undefined
  while (!r.done()) {
    const { field, wire } = r.tag()
    if (field === 1 && wire === WIRE_BYTES) key = r.string()
    else if (field === 2) value = readValue(def, def.type, wire, r, depth + 1)
    else r.skip(wire)
  }
  return [key, value ?? zeroOf(def.type, depth + 1)]
}

function zeroOf(type: FieldType, depth: number): Json {
  if (type === 'int') return 0
  if (type === 'bool') return false
  if (type === 'string' || type === 'bytes') return ''
  return fromBytes(type, new Uint8Array(), depth)
}

function isZero(v: Json): boolean {
  return v === '' || v === 0 || v === false
}

function expectWire(def: Field, got: number, want: number): void {
  if (got !== want)
    throw new ProtobufError(`field ${def.name || '(inline)'}: wire type ${got}, expected ${want}`)
}

/** metav1.Time: a Timestamp {seconds = 1, nanos = 2}; the zero time is sent empty and is null in JSON. */
function timeJson(bytes: Uint8Array): Json {
  if (bytes.length === 0) return null
  const r = new WireReader(bytes)
  let seconds = 0
  while (!r.done()) {
    const { field, wire } = r.tag()
    if (field === 1 && wire === WIRE_VARINT) seconds = r.int()
    else r.skip(wire)
  }
  // JSON carries whole seconds only (RFC 3339 without a fraction), so nanos are dropped.
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** resource.Quantity: its canonical text in field 1; an empty quantity is "0". */
function quantityJson(bytes: Uint8Array): Json {
  const r = new WireReader(bytes)
  let text = ''
  while (!r.done()) {
    const { field, wire } = r.tag()
    if (field === 1 && wire === WIRE_BYTES) text = r.string()
    else r.skip(wire)
  }
  return text === '' ? '0' : text
}

/** intstr.IntOrString {type = 1 (0 int, 1 string), intVal = 2, strVal = 3}: a number or a string in JSON. */
function intOrStringJson(bytes: Uint8Array): Json {
  const r = new WireReader(bytes)
  let kind = 0
  let intVal = 0
  let strVal = ''
  while (!r.done()) {
    const { field, wire } = r.tag()
    if (field === 1 && wire === WIRE_VARINT) kind = r.int()
    else if (field === 2 && wire === WIRE_VARINT) intVal = r.int()
    else if (field === 3 && wire === WIRE_BYTES) strVal = r.string()
    else r.skip(wire)
  }
  return kind === 1 ? strVal : intVal
}

function base64(bytes: Uint8Array): string {
  let bin = ''
  for (let i = 0; i < bytes.length; i += 0x8000)
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(bin)
}
