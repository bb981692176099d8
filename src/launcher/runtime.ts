import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import type { Miniflare as MiniflareType } from 'miniflare'
import { HOST } from './host'
import type { TlsFiles } from './tls'
import type { WorkerConfig } from './worker-config'

// Miniflare is one large CommonJS bundle. Loaded through require() it skips the ESM loader hooks
// tsx installs, which cuts its load time by about 40 % (~0.3 s per start on a 2-core machine).
const { Log, LogLevel, Miniflare } = createRequire(import.meta.url)(
  'miniflare',
) as typeof import('miniflare')

export interface RuntimeOptions {
  scriptPath: string
  worker: WorkerConfig
  /** Added to (and overriding) the vars from wrangler.toml. */
  vars: Record<string, string>
  stateDir: string
  port: number
  /** serve https with this certificate; plain http (behind the launcher's https front) when unset */
  tls?: TlsFiles
}

/**
 * Runs the bundled Worker in workerd through Miniflare's API, with no wrangler dev proxy in between.
 * Returns at once so the caller can dispose it even while it starts; await `mf.ready` for the URL.
 */
export function startRuntime(opts: RuntimeOptions): MiniflareType {
  const { workerOptions } = opts.worker
  return new Miniflare({
    host: HOST,
    port: opts.port,
    ...(opts.tls ? { httpsKey: opts.tls.key, httpsCert: opts.tls.cert } : {}),
    // Warnings and errors only; the Worker's own console output still shows.
    log: new Log(LogLevel.WARN),
    durableObjectsPersist: join(opts.stateDir, 'do'),
    // Anything else that persists (KV, R2, D1, cache) stays in the state dir too.
    defaultPersistRoot: join(opts.stateDir, 'persist'),
    ...workerOptions,
    name: opts.worker.name,
    modules: true,
    scriptPath: opts.scriptPath,
    // Module names are paths relative to this root; the default (cwd) breaks for bundles outside it.
    modulesRoot: dirname(opts.scriptPath),
    // Use the built-in Request.cf placeholder instead of fetching one from the network on start.
    cf: false,
    bindings: { ...workerOptions.bindings, ...opts.vars },
  })
}
