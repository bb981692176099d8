/** The data path's figures: Ingress against the pod served directly, port-forward, and a NodePort across nodes. */
import type { DataPathResult } from '../scenarios/datapath'
import type { Outcome } from '../scenarios/outcome'
import { figure, skipped, type Figure } from './figure'
import type { DATAPATH_KEYS, Key } from './keys'

/** The data path's figures: the edge against the same pod served directly, and one port-forward transfer. */
export function dataPathFigures(
  d: Outcome<DataPathResult> | undefined,
): Record<(typeof DATAPATH_KEYS)[number], Figure> {
  const why =
    d === undefined
      ? 'the data path is measured with the workload scenarios (skipped with --no-workload)'
      : 'error' in d
        ? d.error
        : undefined
  if (d === undefined || 'error' in d) {
    return {
      ingress_rps: skipped('req/s', why!),
      ingress_p99_ms: skipped('ms', why!),
      ingress_vs_direct: skipped('ratio', why!),
      port_forward_mb_per_s: skipped('MiB/s', why!),
      nodeport_rps: skipped('req/s', why!),
      nodeport_p99_ms: skipped('ms', why!),
    }
  }
  const at = d.requests === 4_000 ? undefined : `${d.requests} requests`
  const where =
    "per edge request: route table (cached 1 s) → Service and Endpoints reads (2 Durable Object calls) → a WebSocket from the Worker to the node gateway → open message over the agent tunnel → the agent's HTTP request to the pod → head and body frames back the same way"
  const edge = {
    requests: d.requests,
    concurrency: d.concurrency,
    errors: d.ingress.errors,
    p50_ms: d.ingress.latency.p50,
    where_the_time_goes: where,
  }
  const f = (key: Key, unit: string, value: number, details: Record<string, unknown>) => {
    const fig = figure(key, unit, [value], 'single', details)
    if (at) fig.at = at
    return fig
  }
  return {
    ingress_rps: f('ingress_rps', 'req/s', d.ingress.perSecond, {
      ...edge,
      what: `GET / through the ingress port at c=${d.concurrency} to a process-runtime pod`,
    }),
    ingress_p99_ms: f('ingress_p99_ms', 'ms', d.ingress.latency.p99, edge),
    ingress_vs_direct: f('ingress_vs_direct', 'ratio', d.ingress.perSecond / d.direct.perSecond, {
      direct_rps: d.direct.perSecond,
      direct_p99_ms: d.direct.latency.p99,
      what: 'ingress_rps ÷ the same GETs sent straight to the pod port in the same run',
    }),
    port_forward_mb_per_s:
      'error' in d.portForward
        ? skipped('MiB/s', d.portForward.error)
        : f('port_forward_mb_per_s', 'MiB/s', d.portForward.mbPerSecond, {
            bytes: d.portForward.bytes,
            seconds: d.portForward.seconds,
            what: 'one GET of the bytes through kubectl port-forward (SPDY in WebSocket → node gateway → agent → pod), request to last byte',
          }),
    ...nodePortFigures(d.nodePort, d.concurrency, f),
  }
}

/** The NodePort of a second node, whose only endpoint is on the first: the node-to-node tunnel path. */
function nodePortFigures(
  np: DataPathResult['nodePort'],
  concurrency: number,
  f: (key: Key, unit: string, value: number, details: Record<string, unknown>) => Figure,
): Record<'nodeport_rps' | 'nodeport_p99_ms', Figure> {
  if ('error' in np)
    return { nodeport_rps: skipped('req/s', np.error), nodeport_p99_ms: skipped('ms', np.error) }
  const details = {
    errors: np.errors,
    p50_ms: np.latency.p50,
    what: `GET / at c=${concurrency} to the NodePort of a process node without the pod (new TCP connections per client socket kept alive)`,
    where_the_time_goes:
      'per connection: the Service and Endpoints check in the gateway (cached 1 s) and a WebSocket from one node gateway to the other; per request: the bytes as frames through the agent tunnel, both gateways and the far agent',
  }
  return {
    nodeport_rps: f('nodeport_rps', 'req/s', np.perSecond, details),
    nodeport_p99_ms: f('nodeport_p99_ms', 'ms', np.latency.p99, details),
  }
}
