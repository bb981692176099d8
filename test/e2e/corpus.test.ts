import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyFile, type DocumentOutcome } from './helpers/corpus-apply'
import {
  applyChains,
  bindsAdmissionPolicies,
  definesFoundations,
  loadCorpus,
  ownNamespace,
  type CorpusFile,
} from './helpers/corpus-documents'
import { kubectl, kubectlJson } from './helpers/kubectl'
import { namespace, stream } from './helpers/manifests'
import { startServer, type TestServer } from './helpers/server'
import { waitFor } from './helpers/wait'
import { acceptedFloor, refusals } from './corpus-refusals'

/**
 * Every document of test/fixtures/corpus (the kubernetes/website examples and the install manifests
 * of well-known projects) applied with the real `kubectl apply -f`, file by file. A refused document
 * must have its reason recorded in ./corpus-refusals.ts, in kubectl's words, and a recorded one must
 * still be refused for that reason. EDGEPLANE_CORPUS_RECORD=1 rewrites that file from this run.
 */

const RECORD = process.env.EDGEPLANE_CORPUS_RECORD === '1'
const REFUSALS_FILE = fileURLToPath(new URL('./corpus-refusals.ts', import.meta.url))
const CONCURRENCY = 4
const NAMESPACE_BATCH = 40

const corpus = loadCorpus()
const nsOf = new Map(corpus.map((f, i) => [f.file, ownNamespace(f, i)] as const))
const outcomes = new Map<string, DocumentOutcome>()

let server: TestServer
const run = (args: string[], stdin?: string, timeoutMs?: number) =>
  kubectl(args, { kubeconfig: server.kubeconfig, stdin, timeoutMs })
const json = (args: string[]) => kubectlJson(args, { kubeconfig: server.kubeconfig })

beforeAll(async () => {
  server = await startServer()
})

afterAll(async () => {
  await server?.dispose()
})

async function applyAll(files: CorpusFile[]): Promise<void> {
  const chains = applyChains(files)
  let next = 0
  const worker = async () => {
    while (next < chains.length) {
      for (const f of chains[next++]!) {
        for (const o of await applyFile(server.kubeconfig, f, nsOf.get(f.file)))
          outcomes.set(o.doc.key, o)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, chains.length) }, worker))
}

/** Namespaces go in batches, a few batches at a time: one apply of hundreds outlasts kubectl's timeout. */
async function createNamespaces(names: Iterable<string>): Promise<void> {
  const all = [...new Set(names)]
  const batches: string[][] = []
  for (let i = 0; i < all.length; i += NAMESPACE_BATCH)
    batches.push(all.slice(i, i + NAMESPACE_BATCH))
  let next = 0
  const worker = async () => {
    while (next < batches.length) {
      const res = await run(
        ['apply', '-f', '-'],
        stream(...batches[next++]!.map(namespace)),
        60_000,
      )
      expect(res.code, res.stderr).toBe(0)
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, batches.length) }, worker))
}

function recordedRefusals(observed: Record<string, string>, accepted: number): void {
  const lines = Object.keys(observed)
    .sort()
    .map((k) => `  ${JSON.stringify(k)}:\n    ${JSON.stringify(observed[k])},`)
  const text = [
    "// The corpus documents that are refused, each with kubectl's error for it (file path and test namespace left out).",
    '// Written by `EDGEPLANE_CORPUS_RECORD=1 npx vitest run --config test/vitest.config.ts test/e2e/corpus.test.ts`.',
    `export const acceptedFloor = ${accepted}`,
    'export const refusals: Record<string, string> = {',
    ...lines,
    '}',
    '',
  ].join('\n')
  writeFileSync(REFUSALS_FILE, text)
  console.log(
    `corpus: wrote ${Object.keys(observed).length} refusals and a floor of ${accepted} to ${REFUSALS_FILE}`,
  )
}

function outcomeOf(file: string, kind: string, name: string): DocumentOutcome {
  const o = outcomes.get(`${file}:${kind}/${name}`)
  if (!o) throw new Error(`no document ${kind}/${name} in ${file}`)
  return o
}

describe('a real-world corpus', () => {
  it('accepts its documents through kubectl apply, and refuses only those with a recorded reason', async () => {
    const foundations = corpus.filter(definesFoundations)
    const policies = corpus.filter((f) => !definesFoundations(f) && bindsAdmissionPolicies(f))
    const rest = corpus.filter((f) => !definesFoundations(f) && !bindsAdmissionPolicies(f))

    const started = Date.now()
    await createNamespaces([...nsOf.values()].filter((n): n is string => n !== undefined))
    const namespacesDone = Date.now()
    await applyAll(foundations)

    const crds = [...outcomes.values()]
      .filter((o) => o.accepted && o.doc.kind === 'CustomResourceDefinition')
      .map((o) => `crd/${o.doc.name}`)
    if (crds.length > 0) {
      const res = await run(
        ['wait', '--for=condition=Established', ...crds, '--timeout=60s'],
        undefined,
        70_000,
      )
      expect(res.code, res.stderr).toBe(0)
    }

    // A document that names a namespace nothing in the corpus creates finds it there, as on a
    // cluster where its install guide says to create it first.
    const existing = new Set(
      (await json(['get', 'namespaces'])).items.map((n: any) => n.metadata.name),
    )
    await createNamespaces(
      rest
        .flatMap((f) => f.documents.map((d) => d.namespace))
        .filter((n): n is string => n !== undefined && !existing.has(n)),
    )
    await applyAll(rest)
    await applyAll(policies)
    console.log(
      `corpus: namespaces in ${((namespacesDone - started) / 1000).toFixed(1)} s, ${corpus.length} files applied in ${((Date.now() - namespacesDone) / 1000).toFixed(1)} s`,
    )

    const all = corpus.flatMap((f) => f.documents)
    const observed: Record<string, string> = {}
    for (const d of all) {
      const o = outcomes.get(d.key)!
      if (!o.accepted) observed[d.key] = o.reason!
    }
    const accepted = all.length - Object.keys(observed).length
    console.log(
      `corpus: ${accepted} of ${all.length} documents accepted, from ${corpus.length} files`,
    )

    if (RECORD) {
      recordedRefusals(observed, accepted)
      return
    }
    // Every way the record and the run disagree, in one list, so a single run shows them all.
    const problems = [
      ...Object.keys(observed)
        .filter((k) => !(k in refusals))
        .map((k) => `refused without a recorded reason: ${k}: ${observed[k]}`),
      ...Object.keys(refusals)
        .filter((k) => outcomes.get(k)?.accepted)
        .map((k) => `accepted although a reason says it is refused: ${k}`),
      ...Object.keys(refusals)
        .filter((k) => !outcomes.has(k))
        .map((k) => `recorded for a document the corpus does not have: ${k}`),
      ...Object.keys(refusals)
        .filter((k) => k in observed && observed[k] !== refusals[k])
        .map(
          (k) =>
            `refused for another reason than the recorded one: ${k}\n  recorded: ${refusals[k]}\n  now:      ${observed[k]}`,
        ),
    ]
    expect(
      problems,
      'Run with EDGEPLANE_CORPUS_RECORD=1 to rewrite test/e2e/corpus-refusals.ts from this run.',
    ).toEqual([])
    expect(accepted).toBeGreaterThanOrEqual(acceptedFloor)
  }, 300_000)

  it('runs a Deployment from the examples through its ReplicaSet to pods', async () => {
    const file = 'kubernetes-website/controllers/nginx-deployment.yaml'
    expect(outcomeOf(file, 'Deployment', 'nginx-deployment').accepted).toBe(true)
    const ns = nsOf.get(file)!
    const rs = await waitFor(
      async () => {
        const list = await json([
          'get',
          'replicasets',
          '-n',
          ns,
          '-l',
          'app.kubernetes.io/name=nginx',
        ])
        return list.items.find((r: any) =>
          r.metadata.ownerReferences?.some(
            (o: any) => o.kind === 'Deployment' && o.name === 'nginx-deployment',
          ),
        )
      },
      { what: 'the ReplicaSet of deployment nginx-deployment', timeoutMs: 30_000, intervalMs: 250 },
    )
    expect(rs.spec.replicas).toBe(3)
    // No node is joined: the pods exist and wait, Pending, to be scheduled.
    const pods = await waitFor(
      async () => {
        const list = await json(['get', 'pods', '-n', ns, '-l', 'app.kubernetes.io/name=nginx'])
        return list.items.length === 3 && list.items
      },
      { what: '3 pods of the ReplicaSet', timeoutMs: 30_000, intervalMs: 250 },
    )
    for (const p of pods) {
      expect(p.metadata.ownerReferences[0]).toMatchObject({
        kind: 'ReplicaSet',
        name: rs.metadata.name,
        controller: true,
      })
      expect(p.status.phase).toBe('Pending')
    }
  })

  it('gives a Service of the examples a cluster IP and endpoints without addresses while no pod runs', async () => {
    const file = 'kubernetes-website/application/php-apache.yaml'
    expect(outcomeOf(file, 'Service', 'php-apache').accepted).toBe(true)
    const ns = nsOf.get(file)!
    const svc = await json(['get', 'service', 'php-apache', '-n', ns])
    expect(svc.spec.type).toBe('ClusterIP')
    expect(svc.spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/)
    expect(svc.spec.clusterIPs).toEqual([svc.spec.clusterIP])
    const ep = await waitFor(() => json(['get', 'endpoints', 'php-apache', '-n', ns]), {
      what: 'endpoints php-apache',
      timeoutMs: 30_000,
      intervalMs: 250,
    })
    expect((ep.subsets ?? []).flatMap((s: any) => s.addresses ?? [])).toEqual([])
  })

  it('runs a StatefulSet of the examples in order, behind its headless Service, with a claim per pod', async () => {
    const file = 'kubernetes-website/application/web/web.yaml'
    expect(outcomeOf(file, 'StatefulSet', 'web').accepted).toBe(true)
    const ns = nsOf.get(file)!
    const svc = await json(['get', 'service', 'nginx', '-n', ns])
    expect(svc.spec.clusterIP).toBe('None')
    await waitFor(() => json(['get', 'pod', 'web-0', '-n', ns]), {
      what: 'pod web-0',
      timeoutMs: 30_000,
      intervalMs: 250,
    })
    const pvc = await waitFor(() => json(['get', 'pvc', 'www-web-0', '-n', ns]), {
      what: 'claim www-web-0',
      timeoutMs: 30_000,
      intervalMs: 250,
    })
    expect(pvc.spec.resources.requests.storage).toBe('1Gi')
    // OrderedReady: web-1 waits for web-0 to be Ready, which it cannot be with no node.
    const res = await run(['get', 'pod', 'web-1', '-n', ns])
    expect(res.stderr).toContain('pods "web-1" not found')
  })

  it('serves the kinds of the CustomResourceDefinitions it applied', async () => {
    const file = 'cert-manager/cert-manager.io_certificates.yaml'
    expect(
      outcomeOf(file, 'CustomResourceDefinition', 'certificates.cert-manager.io').accepted,
    ).toBe(true)
    const res = await run(['api-resources', '--api-group=cert-manager.io', '-o', 'name'])
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout.split('\n')).toContain('certificates.cert-manager.io')
  })
})
