// Serves the floor Worker (worker.ts) through the launcher's own bundler and Miniflare runtime,
// so it runs in the same workerd setup as the control plane, on its own port and state dir.
//
//   BENCH_FLOOR_PORT    https port on 127.0.0.1
//   BENCH_FLOOR_STATE   state dir (certificate, Durable Object storage)
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Miniflare } from 'miniflare'
import { bundleWorker } from '../../launcher/bundle'
import { ensureTls } from '../../launcher/tls'
import { loadWorkerConfig, type WorkerConfig } from '../../launcher/worker-config'

const here = dirname(fileURLToPath(import.meta.url))
const repoRoot = join(here, '..', '..', '..')

let mf: Miniflare | undefined
let stopping = false

async function main(): Promise<void> {
  const port = Number(process.env.BENCH_FLOOR_PORT)
  const stateDir = process.env.BENCH_FLOOR_STATE
  if (!Number.isInteger(port) || port <= 0 || !stateDir)
    throw new Error('set BENCH_FLOOR_PORT and BENCH_FLOOR_STATE')
  const [main, scriptPath, tls, { startRuntime }] = await Promise.all([
    loadWorkerConfig(join(repoRoot, 'wrangler.toml')),
    bundleWorker(join(here, 'worker.ts'), join(stateDir, 'build')),
    ensureTls(stateDir),
    import('../../launcher/runtime'),
  ])
  // The control plane's compatibility settings, so both run the same runtime behaviour.
  const worker: WorkerConfig = {
    name: 'edgeplane-bench-floor',
    workerOptions: {
      compatibilityDate: main.workerOptions.compatibilityDate,
      compatibilityFlags: main.workerOptions.compatibilityFlags,
      bindings: {},
      durableObjects: { FLOOR: { className: 'FloorStore', useSQLite: true } },
    },
    crons: [],
    source: 'subset',
  }
  mf = startRuntime({ scriptPath, worker, vars: {}, stateDir, port, tls })
  const url = (await mf.ready).origin
  console.log(`floor listening on ${url}`)
}

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true
    await mf?.dispose().catch(() => {})
  }
  process.exit(code)
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => void shutdown(0))

main().catch(async (err: unknown) => {
  console.error(`floor: failed to start: ${err instanceof Error ? err.message : String(err)}`)
  await shutdown(1)
})
