/** PEM (RFC 7468) blocks: the label and the DER they carry. */
export interface PemBlock {
  label: string
  /** set when the block has RFC 1421 headers (`Key: value` lines), which upstream refuses for requests and certificates */
  headers: boolean
  der: Uint8Array
}

const blockPattern = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g

/** Every PEM block in the text, in order; text around and between blocks is ignored (RFC 7468 §5.2). */
export function pemBlocks(text: string): PemBlock[] {
  const out: PemBlock[] = []
  for (const m of text.matchAll(blockPattern)) {
    const body = m[2]!
    const headers = /^[^\s:]+:/m.test(body)
    const b64 = body
      .split(/\r?\n/)
      .filter((l) => l && !l.includes(':'))
      .join('')
      .replace(/\s+/g, '')
    let der: Uint8Array
    try {
      der = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
    } catch {
      continue
    }
    out.push({ label: m[1]!, headers, der })
  }
  return out
}

export function toPem(label: string, der: Uint8Array): string {
  let b64 = ''
  for (let i = 0; i < der.length; i += 0x8000)
    b64 += String.fromCharCode(...der.subarray(i, i + 0x8000))
  b64 = btoa(b64)
  const lines = b64.match(/.{1,64}/g) ?? []
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`
}
