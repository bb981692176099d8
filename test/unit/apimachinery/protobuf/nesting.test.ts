import { describe, expect, it } from 'vitest'
import { decodeMessage } from '../../../../src/apimachinery/protobuf/decode'
import { ProtobufError } from '../../../../src/apimachinery/protobuf'
import { msg, str, type Table } from '../../../../src/apimachinery/protobuf/schema'

// The served kinds' messages nest at most about ten deep; the decoder still stops at the nesting
// cap for any message type that refers to itself, as a hostile body would exploit.
const Node: Table = { 1: msg('child', () => Node), 2: str('name') }

const varint = (n: number): number[] => {
  const out: number[] = []
  do {
    out.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0))
    n >>>= 7
  } while (n)
  return out
}

/** `levels` Node messages, each the `child` of the one around it, the innermost named "leaf". */
function chain(levels: number): Uint8Array {
  let inner = [0x12, 4, ...Buffer.from('leaf')]
  for (let i = 1; i < levels; i++) inner = [0x0a, ...varint(inner.length), ...inner]
  return new Uint8Array(inner)
}

describe('protobuf nesting', () => {
  it('decodes messages nested 100 deep', () => {
    let node = decodeMessage(Node, chain(100)) as { child?: unknown; name?: string }
    let depth = 1
    while (node.child) {
      node = node.child as typeof node
      depth++
    }
    expect([depth, node.name]).toEqual([100, 'leaf'])
  })

  it.each([101, 3000])('refuses messages nested %i deep', (levels) => {
    expect(() => decodeMessage(Node, chain(levels))).toThrow(
      new ProtobufError(
        'the document is nested too deeply: more than 100 levels of objects and arrays',
      ),
    )
  })
})
