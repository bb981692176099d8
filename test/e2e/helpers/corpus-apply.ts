import { kubectl } from './kubectl'
import type { CorpusDocument, CorpusFile } from './corpus-documents'

export interface DocumentOutcome {
  doc: CorpusDocument
  /** kubectl printed the object as applied. */
  accepted: boolean
  /** For a refused document: kubectl's error for it, without the file path or the test's namespace. */
  reason?: string
}

/**
 * `kubectl apply -f FILE [-n NS] -o name`, really applied (no dry run). kubectl goes on past a
 * document it cannot apply, so one call per file tells every document's fate: those it prints were
 * accepted, the others get the error that names them.
 */
export async function applyFile(
  kubeconfig: string,
  f: CorpusFile,
  ns: string | undefined,
): Promise<DocumentOutcome[]> {
  const args = ['apply', '-f', f.path, '-o', 'name', ...(ns ? ['-n', ns] : [])]
  const res = await kubectl(args, { kubeconfig, timeoutMs: 90_000 })
  const printed = new Set(
    res.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  )
  const blocks = errorBlocks(res.stderr)
  return f.documents.map((doc) => {
    if (printed.has(doc.printedName)) return { doc, accepted: true }
    const block =
      blockFor(doc, blocks) ??
      (res.stderr.trim() || `kubectl exited ${res.code} and neither printed nor refused it`)
    return { doc, accepted: false, reason: normalise(block, f.path, ns) }
  })
}

// The lines that open one of kubectl's errors (or a warning); the lines after them, up to the next
// such line, belong to it. After the first, kubectl lists further errors without `error:`.
const ERROR_START =
  /^(error:|Error from server|Warning:|resource mapping not found|unable to recognize|The [A-Za-z.]+ "[^"]*" is invalid)/

/** kubectl's stderr cut into its errors (warnings dropped); an error may span several lines. */
function errorBlocks(stderr: string): string[] {
  const blocks: string[] = []
  for (const line of stderr.split('\n')) {
    if (ERROR_START.test(line) || blocks.length === 0) blocks.push(line)
    else blocks[blocks.length - 1] += `\n${line}`
  }
  return blocks.filter((b) => !b.startsWith('Warning:') && b.trim() !== '')
}

function blockFor(doc: CorpusDocument, blocks: string[]): string | undefined {
  const named = blocks.filter((b) =>
    doc.name ? b.includes(`"${doc.name}"`) : b.includes('Name: ""'),
  )
  const kind = doc.kind.toLowerCase()
  // An error that names no object (`unable to recognize`, for the items of a List) names the kind.
  return (
    named.find((b) => b.toLowerCase().includes(kind)) ??
    named[0] ??
    blocks.find((b) => b.includes(`kind "${doc.kind}"`))
  )
}

/** The error as a reason that holds from run to run: no file path, no per-file namespace, one line. */
export function normalise(block: string, path: string, ns: string | undefined): string {
  let s = block
    .replace(/^error: /, '')
    .replace(/resource mapping not found for name: "[^"]*" namespace: "[^"]*" from "[^"]*": /, '')
    .replace(/unable to recognize "[^"]*": /, '')
    .replace(/\s*ensure CRDs are installed first/, '')
    .replace(
      /error when retrieving current configuration of:[\s\S]*?from server for: "[^"]*": /,
      '',
    )
    .replace(/error when [a-z ]+ "[^"]*": /, '')
    .split(path)
    .join('FILE')
  if (ns) s = s.split(ns).join('NS')
  return s.replace(/\s+/g, ' ').trim()
}
