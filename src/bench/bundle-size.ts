import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'

export interface BundleSize {
  /** gzip of the bundle without its inline source map: what a deploy uploads as the script. */
  gzipBytes: number
  rawBytes: number
  /** gzip of the file exactly as the launcher writes it, inline source map included. */
  gzipWithSourceMapBytes: number
}

const INLINE_SOURCE_MAP = /\n?\/\/# sourceMappingURL=data:[^\n]*\s*$/

/** Measures the Worker bundle the launcher built into a state dir (`build/worker.mjs`). */
export async function bundleSize(stateDir: string): Promise<BundleSize> {
  const text = await readFile(join(stateDir, 'build', 'worker.mjs'), 'utf8')
  const script = text.replace(INLINE_SOURCE_MAP, '\n')
  return {
    gzipBytes: gzipSync(script).length,
    rawBytes: Buffer.byteLength(script),
    gzipWithSourceMapBytes: gzipSync(text).length,
  }
}
