import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { build, type BuildOptions, type Message } from 'esbuild'

const OPTIONS: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2024',
  // The same resolution wrangler uses, so packages pick their Workers builds.
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  // Provided by the runtime (node:* through the nodejs_compat flag).
  external: ['cloudflare:*', 'node:*'],
  // wrangler's default module rules for text and data imports, inlined instead of attached.
  loader: { '.txt': 'text', '.html': 'text', '.sql': 'text', '.bin': 'binary' },
  sourcemap: 'inline',
  logLevel: 'silent',
}

/**
 * Bundles the Worker entry into one ES module for workerd. Runs on every start, so a restart always
 * serves the current source; esbuild makes that cheap enough to not bother with caching.
 */
export async function bundleWorker(entry: string, outDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true })
  const outfile = join(outDir, 'worker.mjs')
  try {
    await build({ ...OPTIONS, entryPoints: [entry], outfile })
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors
    if (!errors?.length) throw err
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''
    throw new Error(`cannot bundle the Worker: ${describe(errors[0]!)}${more}`)
  }
  return outfile
}

function describe(m: Message): string {
  const at = m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ` : ''
  return at + m.text
}
