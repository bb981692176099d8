import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { WorkerOptions } from 'miniflare'
import { parse as parseToml, TomlError, type TomlTable, type TomlValue } from 'smol-toml'

/** What the launcher needs from wrangler.toml to run the Worker the way `wrangler dev` would. */
export interface WorkerConfig {
  name: string
  /** Compatibility settings and every binding, as Miniflare worker options (no script). */
  workerOptions: BindingOptions
  crons: string[]
  /** `subset`: read here (smol-toml) for the keys understood below; `wrangler`: derived by wrangler itself (slow to load). */
  source: 'subset' | 'wrangler'
  /** Why wrangler had to be loaded, when it had to. */
  fallbackReason?: string
}

// Top-level keys the built-in reader understands, or that do not change local bindings. A config
// using any other key (KV, R2, D1, services, ...) is handed to wrangler so no binding is lost.
const UNDERSTOOD = new Set([
  'name',
  'main',
  'compatibility_date',
  'compatibility_flags',
  'durable_objects',
  'migrations',
  'triggers',
  'vars',
])
const IRRELEVANT = new Set([
  '$schema',
  'account_id',
  'workers_dev',
  'route',
  'routes',
  'observability',
  'placement',
  'limits',
  'minify',
  'keep_vars',
  'send_metrics',
  'env',
  'upload_source_maps',
  'preview_urls',
])

export type BindingOptions = Omit<
  WorkerOptions,
  'script' | 'scriptPath' | 'modules' | 'modulesRoot' | 'name'
>

class NeedsWrangler extends Error {}

export async function loadWorkerConfig(configPath: string): Promise<WorkerConfig> {
  try {
    return readWithSubset(configPath)
  } catch (err) {
    if (!(err instanceof NeedsWrangler || err instanceof TomlError)) throw err
    return { ...(await readWithWrangler(configPath)), fallbackReason: err.message }
  }
}

export function readWithSubset(configPath: string): WorkerConfig {
  // wrangler dev merges local secrets from these files; only wrangler knows all their rules.
  const dir = dirname(configPath)
  for (const f of ['.dev.vars', '.env']) {
    if (existsSync(join(dir, f))) throw new NeedsWrangler(`${f} present`)
  }
  const toml = parseToml(readFileSync(configPath, 'utf8'))
  for (const key of Object.keys(toml)) {
    if (!UNDERSTOOD.has(key) && !IRRELEVANT.has(key))
      throw new NeedsWrangler(`wrangler.toml uses '${key}'`)
  }

  const sqlite = sqliteClasses(tables(toml.migrations, 'migrations'))
  const durableObjects: Record<string, { className: string; useSQLite: boolean }> = {}
  const doSection =
    toml.durable_objects === undefined ? {} : table(toml.durable_objects, 'durable_objects')
  for (const b of tables(doSection.bindings, 'durable_objects.bindings')) {
    if (b.script_name !== undefined || b.environment !== undefined)
      throw new NeedsWrangler('a Durable Object bound from another Worker')
    const className = str(b.class_name, 'durable_objects.bindings.class_name')
    durableObjects[str(b.name, 'durable_objects.bindings.name')] = {
      className,
      useSQLite: sqlite.get(className) ?? false,
    }
  }

  const triggers = toml.triggers === undefined ? {} : table(toml.triggers, 'triggers')
  return {
    name: str(toml.name, 'name'),
    workerOptions: {
      compatibilityDate:
        toml.compatibility_date === undefined
          ? undefined
          : str(toml.compatibility_date, 'compatibility_date'),
      compatibilityFlags: strings(toml.compatibility_flags, 'compatibility_flags'),
      bindings: toml.vars === undefined ? {} : { ...table(toml.vars, 'vars') },
      durableObjects,
    },
    crons: strings(triggers.crons, 'triggers.crons'),
    source: 'subset',
  }
}

/** Replays the migrations the way wrangler does to learn which classes are SQLite-backed. */
function sqliteClasses(migrations: TomlTable[]): Map<string, boolean> {
  const classes = new Map<string, boolean>()
  for (const m of migrations) {
    for (const c of strings(m.new_classes, 'migrations.new_classes')) classes.set(c, false)
    for (const c of strings(m.new_sqlite_classes, 'migrations.new_sqlite_classes'))
      classes.set(c, true)
    for (const r of tables(m.renamed_classes, 'migrations.renamed_classes')) {
      const from = str(r.from, 'renamed_classes.from')
      const to = str(r.to, 'renamed_classes.to')
      classes.set(to, classes.get(from) ?? false)
      classes.delete(from)
    }
    for (const c of strings(m.deleted_classes, 'migrations.deleted_classes')) classes.delete(c)
    if (m.transferred_classes !== undefined)
      throw new NeedsWrangler('transferred Durable Object classes')
  }
  return classes
}

export async function readWithWrangler(
  configPath: string,
): Promise<Omit<WorkerConfig, 'fallbackReason'>> {
  const wrangler = await import('wrangler')
  const config = wrangler.unstable_readConfig({ config: configPath }, { hideWarnings: true })
  const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(config)
  // Module rules only matter to wrangler's own bundler; the launcher bundles with esbuild.
  const { modulesRules: _rules, ...bindingOptions } = workerOptions
  return {
    name: config.name ?? 'worker',
    workerOptions: bindingOptions,
    crons: config.triggers.crons ?? [],
    source: 'wrangler',
  }
}

function table(v: TomlValue, what: string): TomlTable {
  if (typeof v !== 'object' || Array.isArray(v) || v instanceof Date)
    throw new NeedsWrangler(`unexpected shape of '${what}'`)
  return v as TomlTable
}

function tables(v: TomlValue | undefined, what: string): TomlTable[] {
  if (v === undefined) return []
  if (!Array.isArray(v)) throw new NeedsWrangler(`unexpected shape of '${what}'`)
  return v.map((t) => table(t, what))
}

function str(v: TomlValue | undefined, what: string): string {
  if (typeof v !== 'string') throw new NeedsWrangler(`unexpected shape of '${what}'`)
  return v
}

function strings(v: TomlValue | undefined, what: string): string[] {
  if (v === undefined) return []
  if (!Array.isArray(v)) throw new NeedsWrangler(`unexpected shape of '${what}'`)
  return v.map((s) => str(s, what))
}
