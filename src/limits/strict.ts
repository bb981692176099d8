import { AsyncLocalStorage } from 'node:async_hooks'
import { productionLimits, type LimitName } from './production'
import { serializedSize } from './serialized-size'

/** The largest figures seen so far in one place (the Worker's isolate, or one controller host), and the limits passed. */
export interface LimitFigures {
  maxSubrequests: number
  maxRpcBytes: number
  maxCacheBytes: number
  maxPassCpuMs: number
  /** how many times each limit was passed */
  breaches: Record<LimitName, number>
}

export const emptyFigures = (): LimitFigures => ({
  maxSubrequests: 0,
  maxRpcBytes: 0,
  maxCacheBytes: 0,
  maxPassCpuMs: 0,
  breaches: { rpcBytes: 0, subrequests: 0, cpuMs: 0, isolateBytes: 0 },
})

/** What the Worker's invocations in this isolate have reached. */
export const workerFigures: LimitFigures = emptyFigures()

/** Thrown where production would refuse: the call is not made. */
export class LimitExceeded extends Error {}

/** Logs and counts a limit passed; the log line is what tests and operators look for. */
export function limitPassed(
  figures: LimitFigures,
  limit: LimitName,
  where: string,
  message: string,
): void {
  figures.breaches[limit]++
  console.error(`strict limits: ${where}: ${message} (production limit ${productionLimits[limit]})`)
}

/** One invocation's subrequests and RPC sizes, counted as they are made. */
export class InvocationMeter {
  subrequests = 0

  constructor(
    readonly where: string,
    readonly figures: LimitFigures,
  ) {}

  /** Counts a subrequest; the one past the limit fails, as the platform fails it. */
  subrequest(what: string): void {
    this.subrequests++
    if (this.subrequests > this.figures.maxSubrequests)
      this.figures.maxSubrequests = this.subrequests
    if (this.subrequests > productionLimits.subrequests) {
      const message = `subrequest ${this.subrequests} (${what}) in one invocation`
      limitPassed(this.figures, 'subrequests', this.where, message)
      throw new LimitExceeded(`Too many subrequests: ${message}`)
    }
  }

  /** Measures what crosses an RPC boundary; a value past the limit fails, as the platform fails it. */
  rpcValue(what: string, value: unknown): void {
    const bytes = serializedSize(value)
    if (bytes > this.figures.maxRpcBytes) this.figures.maxRpcBytes = bytes
    if (bytes > productionLimits.rpcBytes) {
      const message = `${what} serializes to ${bytes} bytes`
      limitPassed(this.figures, 'rpcBytes', this.where, message)
      throw new LimitExceeded(
        `Serialized RPC arguments or return values are limited to 32MiB: ${message}`,
      )
    }
  }
}

const current = new AsyncLocalStorage<InvocationMeter>()

/** Runs one invocation with its meter: every metered stub used inside counts against it. */
export function metered<T>(meter: InvocationMeter, run: () => T): T {
  return current.run(meter, run)
}

/** Counts a subrequest made outside a stub (a fetch) against the running invocation, if one is metered. */
export function countSubrequest(what: string): void {
  current.getStore()?.subrequest(what)
}

/**
 * A Durable Object stub whose calls count against the invocation that makes them: each call or
 * fetch is a subrequest, and each RPC's arguments and return value are measured. Without strict
 * mode (`strict`, EDGEPLANE_STRICT_LIMITS) the stub itself is returned, so nothing is counted and nothing costs.
 */
export function meteredStub<T extends object>(strict: boolean, stub: T, label: string): T {
  if (!strict) return stub
  const createdIn = current.getStore()
  return new Proxy(stub, {
    get(target, prop) {
      const value = (target as Record<string | symbol, unknown>)[prop]
      if (typeof prop !== 'string' || typeof value !== 'function' || prop === 'then') return value
      const call = (args: unknown[]) =>
        Reflect.apply(value as (...a: unknown[]) => unknown, target, args)
      return (...args: unknown[]) => {
        const meter = current.getStore() ?? createdIn
        if (!meter) return call(args)
        const what = `${label}.${prop}`
        try {
          meter.subrequest(what)
          if (prop !== 'fetch') meter.rpcValue(`${what} arguments`, args)
        } catch (e) {
          return Promise.reject(e)
        }
        if (prop === 'fetch') return call(args)
        return Promise.resolve(call(args)).then((result) => {
          meter.rpcValue(`${what} result`, result)
          return result
        })
      }
    },
  })
}

/** The figures as Prometheus samples, one series per limit, labelled with where they were seen. */
export function renderLimitFigures(series: [labels: string, figures: LimitFigures][]): string {
  const lines: string[] = []
  const gauge = (name: string, help: string, value: (f: LimitFigures) => number) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`)
    for (const [labels, f] of series) lines.push(`${name}{${labels}} ${value(f)}`)
  }
  gauge(
    'edgeplane_strict_max_subrequests_per_invocation',
    'Most subrequests made by one invocation (strict-limits mode).',
    (f) => f.maxSubrequests,
  )
  gauge(
    'edgeplane_strict_max_rpc_bytes',
    'Largest serialized RPC argument or return value (strict-limits mode).',
    (f) => f.maxRpcBytes,
  )
  gauge(
    'edgeplane_strict_max_cache_bytes',
    "Largest serialized size of a controller's caches (strict-limits mode).",
    (f) => f.maxCacheBytes,
  )
  gauge(
    'edgeplane_strict_max_pass_cpu_ms',
    'Longest CPU work of one controller pass, in ms (strict-limits mode).',
    (f) => f.maxPassCpuMs,
  )
  lines.push(
    '# HELP edgeplane_strict_limit_exceeded_total Production limits passed (strict-limits mode).',
    '# TYPE edgeplane_strict_limit_exceeded_total counter',
  )
  for (const [labels, f] of series)
    for (const [limit, n] of Object.entries(f.breaches))
      lines.push(`edgeplane_strict_limit_exceeded_total{${labels},limit="${limit}"} ${n}`)
  return lines.join('\n') + '\n'
}
