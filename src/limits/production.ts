/**
 * The Cloudflare production limits that strict-limits mode (`EDGEPLANE_STRICT_LIMITS=true`) holds
 * every invocation to. Locally the runtime enforces almost none of them, so without this mode a
 * cluster that would fail in production runs on unnoticed.
 */
export const productionLimits = {
  /** serialized arguments or return value of one Workers RPC call */
  rpcBytes: 32 * 1024 * 1024,
  /**
   * subrequests (Durable Object calls and fetches) of one invocation. The Workers Paid plan allows
   * 10,000, but calls to Cloudflare services such as Durable Objects have long been capped at 1,000
   * and the Free plan allows 50 fetches; the 1,000 is the one held to, since every subrequest here
   * is a Durable Object call or could be.
   */
  subrequests: 1000,
  /**
   * CPU of one invocation: the platform's default. wrangler.toml raises it to 5 min, but a
   * controller pass that needs more than the default is already one to split.
   */
  cpuMs: 30_000,
  /**
   * memory of one isolate, which Durable Objects of one class may share. A controller's cache,
   * counted in serialized bytes, is held to it; parsed objects take more than their JSON, so a
   * cache near half of it is already one to shrink.
   */
  isolateBytes: 128 * 1024 * 1024,
} as const

export type LimitName = keyof typeof productionLimits
