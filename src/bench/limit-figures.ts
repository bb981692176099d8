import type { HttpClient } from './http-client'
import { productionLimits } from '../limits/production'

/** The strict-limits figures of a whole control plane: the largest over the Worker and every controller host. */
export interface LimitReadings {
  max_rpc_bytes: number
  max_subrequests_per_invocation: number
  max_cache_bytes_per_host: number
  max_pass_cpu_ms: number
  /**
   * the largest cache of every host added up: what they would hold together were the platform to
   * put every controller host in one isolate
   */
  sum_cache_bytes_all_hosts: number
  /** every production limit passed, counted over all scopes */
  limits_exceeded: number
  /** where each largest figure was seen: `worker` or a controller's name */
  where: Record<string, string>
}

const GAUGES: [
  metric: string,
  field: keyof Omit<LimitReadings, 'where' | 'limits_exceeded' | 'sum_cache_bytes_all_hosts'>,
][] = [
  ['edgeplane_strict_max_rpc_bytes', 'max_rpc_bytes'],
  ['edgeplane_strict_max_subrequests_per_invocation', 'max_subrequests_per_invocation'],
  ['edgeplane_strict_max_cache_bytes', 'max_cache_bytes_per_host'],
  ['edgeplane_strict_max_pass_cpu_ms', 'max_pass_cpu_ms'],
]

/** Reads GET /metrics of a control plane started with EDGEPLANE_STRICT_LIMITS=true. */
export async function readLimitFigures(client: HttpClient): Promise<LimitReadings> {
  const res = await client.request('GET', '/metrics', undefined, { accept: 'text/plain' })
  if (res.status !== 200)
    throw new Error(`GET /metrics answered ${res.status}: ${res.body.slice(0, 300)}`)
  return parseLimitFigures(res.body)
}

export function parseLimitFigures(text: string): LimitReadings {
  const out: LimitReadings = {
    max_rpc_bytes: 0,
    max_subrequests_per_invocation: 0,
    max_cache_bytes_per_host: 0,
    max_pass_cpu_ms: 0,
    sum_cache_bytes_all_hosts: 0,
    limits_exceeded: 0,
    where: {},
  }
  const cacheOfHost = new Map<string, number>()
  for (const line of text.split('\n')) {
    const m = /^(edgeplane_strict_[a-z_]+)\{([^}]*)\} (\S+)$/.exec(line.trim())
    if (!m) continue
    const value = Number(m[3])
    if (m[1] === 'edgeplane_strict_max_cache_bytes') {
      // The controllers of one host each report that host's cache.
      const host =
        /host="([^"]+)"/.exec(m[2]!)?.[1] ?? /controller="([^"]+)"/.exec(m[2]!)?.[1] ?? 'worker'
      cacheOfHost.set(host, Math.max(cacheOfHost.get(host) ?? 0, value))
    }
    if (m[1] === 'edgeplane_strict_limit_exceeded_total') {
      out.limits_exceeded += value
      continue
    }
    const field = GAUGES.find(([metric]) => metric === m[1])?.[1]
    if (!field || value <= out[field]) continue
    out[field] = value
    out.where[field] = /controller="([^"]+)"/.exec(m[2]!)?.[1] ?? 'worker'
  }
  for (const bytes of cacheOfHost.values()) out.sum_cache_bytes_all_hosts += bytes
  return out
}

/** One strict-limits gauge as each controller reports it, with the host that runs the controller. */
export interface ControllerGauge {
  controller: string
  host: string
  value: number
}

/** The controller series of one `edgeplane_strict_*` gauge in a GET /metrics text. */
export function controllerGauges(text: string, metric: string): ControllerGauge[] {
  const out: ControllerGauge[] = []
  for (const line of text.split('\n')) {
    const m = /^(edgeplane_strict_[a-z_]+)\{([^}]*)\} (\S+)$/.exec(line.trim())
    if (!m || m[1] !== metric) continue
    const controller = /controller="([^"]+)"/.exec(m[2]!)?.[1]
    if (!controller) continue
    out.push({
      controller,
      host: /host="([^"]+)"/.exec(m[2]!)?.[1] ?? controller,
      value: Number(m[3]),
    })
  }
  return out
}

/** Each figure against half its production limit: the margin the bench asks of a cluster. */
export function againstHalfLimits(
  r: LimitReadings,
): Record<string, { value: number; half_limit: number; within: boolean }> {
  const half = {
    max_rpc_bytes: productionLimits.rpcBytes / 2,
    max_subrequests_per_invocation: productionLimits.subrequests / 2,
    max_cache_bytes_per_host: productionLimits.isolateBytes / 2,
    max_pass_cpu_ms: productionLimits.cpuMs / 2,
  }
  return Object.fromEntries(
    Object.entries(half).map(([k, h]) => [
      k,
      { value: r[k as keyof typeof half], half_limit: h, within: r[k as keyof typeof half] <= h },
    ]),
  )
}
