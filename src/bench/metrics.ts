import type { HttpClient } from './http-client'

/** Per controller, the value of each `edgeplane_controller_*` series, keyed by metric name. */
export type ControllerSamples = Map<string, Record<string, number>>

const SERIES = /^(edgeplane_controller_[a-z_]+)\{controller="([^"]+)"\} (\S+)$/

/** Reads `GET /metrics` (Prometheus text) and keeps the per-controller series. */
export async function readControllerMetrics(client: HttpClient): Promise<ControllerSamples> {
  const res = await client.request('GET', '/metrics', undefined, { accept: 'text/plain' })
  if (res.status !== 200)
    throw new Error(`GET /metrics answered ${res.status}: ${res.body.slice(0, 300)}`)
  return parseControllerMetrics(res.body)
}

export function parseControllerMetrics(text: string): ControllerSamples {
  const out: ControllerSamples = new Map()
  for (const line of text.split('\n')) {
    const m = SERIES.exec(line.trim())
    if (!m) continue
    const [, metric, controller, value] = m
    const row = out.get(controller!) ?? {}
    row[metric!] = Number(value)
    out.set(controller!, row)
  }
  return out
}

/** How much `metric` grew per controller between two reads. */
export function growth(
  before: ControllerSamples,
  after: ControllerSamples,
  metric: string,
): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [controller, row] of after)
    out[controller] = (row[metric] ?? 0) - (before.get(controller)?.[metric] ?? 0)
  return out
}
