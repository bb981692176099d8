import { describe, expect, it } from 'vitest'
import { ResizeChannel } from '../../../src/agent/resize-channel'
import type { TerminalSize } from '../../../src/agent/runtime/types'

const frame = (text: string) => new TextEncoder().encode(text)

describe('the resize channel', () => {
  it('passes each window size kubectl sends, and the last one to a listener that comes late', () => {
    const channel = new ResizeChannel()
    channel.push(frame('{"Width":80,"Height":24}'))
    channel.push(frame('{"Width":120,"Height":40}'))
    const seen: TerminalSize[] = []
    channel.listen((s) => seen.push(s))
    expect(seen).toEqual([{ width: 120, height: 40 }])
    channel.push(frame('{"Width":100,"Height":30}'))
    expect(seen).toEqual([
      { width: 120, height: 40 },
      { width: 100, height: 30 },
    ])
  })

  it('ignores what is not a size', () => {
    const channel = new ResizeChannel()
    const seen: TerminalSize[] = []
    channel.listen((s) => seen.push(s))
    for (const bad of [
      'not json',
      '{"Width":"80","Height":24}',
      '{"Width":0,"Height":24}',
      '{}',
      '[]',
    ])
      channel.push(frame(bad))
    expect(seen).toEqual([])
  })
})
