import type { KindStore } from '../durable-objects/kind-store/kind-store'

/** Bindings of the Worker, as declared in wrangler.toml. */
export interface Env {
  KIND_STORE: DurableObjectNamespace<KindStore>
  /** Bearer token granting full access; empty means no admin token is configured. */
  ADMIN_TOKEN?: string
  /** Compaction keeps at least this many recent changes (default 1000). */
  COMPACT_RETAIN_EVENTS?: string
  /** Compaction keeps at least this many seconds of history (default 300). */
  COMPACT_RETAIN_SECONDS?: string
}
