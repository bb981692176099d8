import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseAllDocuments } from 'yaml'

/** test/fixtures/corpus: real-world manifests kept byte for byte (see its README.md). */
export const CORPUS_DIR = fileURLToPath(new URL('../../fixtures/corpus', import.meta.url))

export interface CorpusDocument {
  /** `file:Kind/name`, or `file#index` for a document without a name. */
  key: string
  apiVersion: string
  kind: string
  name: string
  /** metadata.namespace as written, if any. */
  namespace?: string
  /** `kubectl apply -o name` prints `kind.group/name` (`kind/name` for the core group). */
  printedName: string
}

export interface CorpusFile {
  /** Path relative to the corpus directory. */
  file: string
  path: string
  documents: CorpusDocument[]
}

/** Every YAML file of the corpus, sorted, with its documents (the items of a `List` counted one by one). */
export function loadCorpus(): CorpusFile[] {
  return yamlFiles(CORPUS_DIR)
    .sort()
    .map((path) => {
      const file = relative(CORPUS_DIR, path)
      return { file, path, documents: documentsOf(file, readFileSync(path, 'utf8')) }
    })
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return yamlFiles(path)
    return /\.ya?ml$/.test(e.name) ? [path] : []
  })
}

function documentsOf(file: string, text: string): CorpusDocument[] {
  const objects: Record<string, any>[] = []
  for (const doc of parseAllDocuments(text)) {
    // A document that is not YAML is still applied; kubectl's error for it is its recorded reason.
    if (doc.errors.length > 0) {
      objects.push({})
      continue
    }
    const value = doc.toJS()
    if (value === null || typeof value !== 'object') continue
    // kubectl applies the items of a List one by one.
    if (value.kind === 'List' && Array.isArray(value.items)) objects.push(...value.items)
    else objects.push(value)
  }
  return objects.map((o, index) => {
    const apiVersion = String(o.apiVersion ?? '')
    const kind = String(o.kind ?? '')
    const name = String(o.metadata?.name ?? '')
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : ''
    return {
      key: name ? `${file}:${kind}/${name}` : `${file}#${index}`,
      apiVersion,
      kind,
      name,
      namespace: o.metadata?.namespace === undefined ? undefined : String(o.metadata.namespace),
      printedName: `${kind.toLowerCase()}${group ? `.${group}` : ''}/${name}`,
    }
  })
}

/** Files that define CustomResourceDefinitions or Namespaces go first, so what the rest needs exists. */
export function definesFoundations(f: CorpusFile): boolean {
  return f.documents.some(
    (d) =>
      d.kind === 'CustomResourceDefinition' || (d.kind === 'Namespace' && d.apiVersion === 'v1'),
  )
}

/**
 * Whether a file binds admission policies: its bindings hold every later write to their rules (the
 * documentation's examples refuse pods without a label, or privileged ones), so such files are
 * applied after every other, as on a cluster that adopts a policy after its workloads exist.
 */
export function bindsAdmissionPolicies(f: CorpusFile): boolean {
  return f.documents.some((d) =>
    /^(Validating|Mutating)AdmissionPolicy(Binding)?$/.test(d.kind ?? ''),
  )
}

/**
 * The namespace a file is applied in: a file whose documents name no namespace gets one of its own
 * (`kubectl apply -n`), so examples that reuse a name (`nginx`, `web`) do not meet; a file that
 * names namespaces is applied as written.
 */
export function ownNamespace(f: CorpusFile, index: number): string | undefined {
  if (f.documents.some((d) => d.namespace !== undefined)) return undefined
  const slug = f.file
    .toLowerCase()
    .replace(/\.ya?ml$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `c${index}-${slug}`.slice(0, 63).replace(/-+$/, '')
}

/**
 * The files cut into chains that may be applied side by side: files that name the same object
 * (`kind/name`, e.g. two examples that both write DaemonSet `fluentd-elasticsearch` in kube-system,
 * or a ClusterRole of an install bundle and of its parts) share a chain and are applied in corpus
 * order, as a reader following the examples one after another would, so a run never races two
 * creates of one object.
 */
export function applyChains(files: CorpusFile[]): CorpusFile[][] {
  const parent = files.map((_, i) => i)
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)))
  const owner = new Map<string, number>()
  files.forEach((f, i) => {
    for (const d of f.documents) {
      if (!d.kind || !d.name) continue
      const id = `${d.kind}/${d.name}`
      const o = owner.get(id)
      if (o === undefined) owner.set(id, i)
      else parent[root(i)] = root(o)
    }
  })
  const chains = new Map<number, CorpusFile[]>()
  files.forEach((f, i) => {
    const r = root(i)
    chains.set(r, [...(chains.get(r) ?? []), f])
  })
  return [...chains.values()]
}
